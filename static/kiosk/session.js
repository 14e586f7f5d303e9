// One customer's session, from start to thank-you (or to a polite end): waiting for an agent,
// the agent and the video, the live cart, and the payment step. Real-time events drive it while
// the kiosk channel is live; otherwise GET poll_url runs every `pollSeconds` (spec rule 1) and
// says the same. After a reconnect the status and the order are read again. Everything it learns
// goes into the store as the server said it; views.js draws it.
import { ApiError } from "../common/http.js";
import { asFailure, logFailure } from "../common/report.js";
import { get, post } from "./api.js";
import { device } from "./device.js";
import { CardRefused, paymentMethodFor } from "./payment.js";
import { agentSendRefused, onReader, readerRefusal } from "./reader.js";
import { NOT_ALONE } from "./self-service.js";
import { NO_SESSION } from "./state.js";
import { agentChanged, agentJustArrived, destinationOf, isOpen, paidOrderNumber, paymentWithdrawn } from "./status.js";
import { t } from "./messages.js";
import { agentHere, agentTookOver, cardRefusal, declined, ending, failureReason } from "./words.js";

/**
 * @typedef {import("./state.js").KioskState} KioskState
 * @typedef {import("./state.js").StatusBody} StatusBody
 * @typedef {"thanks" | "ended" | "cancelled"} Finish
 */

/**
 * @param {object} deps
 * @param {import("../common/store.js").Store<KioskState>} deps.store
 * @param {{pollSeconds: number}} deps.config
 * @param {{start(channel: string): unknown, stop(): unknown}} deps.video
 * @param {HTMLElement} deps.paymentForm where the payment method draws its card fields
 * @param {(text: string) => void} deps.announce
 * @param {(how: Finish) => void} deps.onFinished
 */
export function createSession({ store, config, video, paymentForm, announce, onFinished }) {
  /** @type {ReturnType<typeof setInterval> | null} */
  let pollTimer = null;
  /** @type {ReturnType<typeof paymentMethodFor> | null} the card fields on screen (a widget, not state) */
  let method = null;
  const state = store.get;
  const id = () => state().sessionId;
  /** A sentence in the customer's language (messages.js). @param {string} key @param {Record<string, string | number>} [values] */
  const say = (key, values) => t(state().locale, key, values);
  const open = () => {
    const { sessionId, status } = state();
    return sessionId !== null && isOpen(status && status.status);
  };

  function updatePolling() {
    // Paying on a reader, the status is read even while live: the reader's reports (offline, back
    // on the payment after a decline) change the status body but send the kiosk no event.
    const wanted = open() && (!state().live || onReader(state().payment));
    if (wanted && !pollTimer) {
      pollTimer = setInterval(refresh, config.pollSeconds * 1000);
    } else if (!wanted && pollTimer) {
      clearInterval(pollTimer);
      pollTimer = null;
    }
  }

  /** @param {string} locale @param {"video" | "chat"} [medium] chat: the customer writes only (no camera) */
  async function start(locale, medium = "video") {
    let started;
    try {
      const accessible_mode = state().access.on;
      started = await post("/api/public/sessions/start", { device_id: device.id, customer_locale: locale, accessible_mode, medium });
    } catch (caught) {
      const error = asFailure(caught);
      const openId = error.details && error.details.session_id;
      if (error.code === "SESSION_IN_PROGRESS" && typeof openId === "string" && openId) return resume(openId);
      throw error;
    }
    device.sessionOpened(started.session_id, locale);
    store.set({ sessionId: started.session_id, status: null, pollUrl: started.poll_url });
    applyStatus(started);
    updatePolling();
    if (!started.queue) refresh(); // the start's answer has no place in line: the status has
  }

  /**
   * The customer picks another language during the session: the kiosk's words change at once, the
   * menu is read in it, and the session's customer_locale follows (the agent sees it); the status
   * and the cart are read again (the cart's words are the customer's language's).
   * @param {string} locale
   */
  async function changeLocale(locale) {
    const sessionId = id();
    if (!sessionId || locale === state().locale) return;
    store.set({ locale });
    device.sessionOpened(sessionId, locale); // a reload keeps it
    if (state().screen === "session") loadMenu(); // a read in the old language still on its way is dropped
    try {
      await post(`/api/public/sessions/${sessionId}/locale`, { customer_locale: locale });
    } finally {
      if (sessionId === id()) await refresh(); // 409: the session ended meanwhile, and the status says so
    }
  }

  /** The customer turned accessible mode on or off during the session: the server's status says it. */
  async function changeAccessible(/** @type {boolean} */ on) {
    const sessionId = id();
    if (!sessionId) return;
    await post(`/api/public/sessions/${sessionId}/accessible`, { accessible_mode: on });
  }

  /** @param {string} sessionId */
  async function resume(sessionId) {
    device.sessionOpened(sessionId, state().locale);
    store.set({ sessionId, status: null, pollUrl: `/api/public/sessions/${sessionId}/status` });
    await refresh();
    updatePolling();
  }

  /**
   * After a reload: the session this device had open, resumed without a tap (its status, agent,
   * cart and payment step read again) when it is still open. Resolves true when resumed; a
   * session that ended meanwhile is forgotten (the attract screen follows).
   */
  async function resumeAfterReload() {
    const remembered = device.openSession;
    if (!remembered) return false;
    let status;
    try {
      status = await get(`/api/public/sessions/${remembered.id}/status`);
    } catch (error) {
      logFailure("reading the session open before the reload", error);
      if (asFailure(error).status !== 0) device.sessionClosed(); // gone (404) or refused: nothing to resume
      return false;
    }
    if (!isOpen(status.status)) {
      device.sessionClosed();
      return false;
    }
    store.set({ locale: remembered.locale });
    const aloneBefore = remembered.alone && (status.status === "pending" || (status.status === "payment" && !status.agent));
    if (aloneBefore) store.set({ alone: { ...NOT_ALONE, on: true, lines: remembered.alone || [] } }); // the cart built alone
    await resume(remembered.id);
    return true;
  }

  /** The channel went live or dropped; after a reconnect anything missed is read again. @param {boolean} live @param {boolean} reconnected */
  function setLive(live, reconnected) {
    store.set({ live });
    updatePolling();
    if (open() && (reconnected || live)) refresh();
  }

  /** @returns {Promise<void>} */
  async function refresh() {
    const sessionId = id();
    if (!sessionId) return;
    const { status: asked, order: cart } = state();
    try {
      const pollUrl = state().pollUrl;
      if (!pollUrl) throw new Error("the session has no status address"); // the start gives both
      const status = await get(pollUrl);
      if (sessionId !== id()) return;
      const ordering = status.status !== "pending" || state().alone.on; // alone, the cart is built while waiting
      const order = ordering ? await get(`/api/public/sessions/${sessionId}/order`) : null;
      const payment = status.status === "payment" ? await get(`/api/public/sessions/${sessionId}/payment`) : null;
      if (sessionId !== id()) return;
      // The status or the cart changed while these were read (an event, the customer's own Pay or
      // cart change): the answers may be older than it (a "pending" read before Pay answered
      // would close the card step just opened), so they are read again rather than applied.
      if (state().status !== asked || state().order !== cart) return refresh();
      if (order) store.set({ order });
      if (payment) showReadPayment(payment);
      applyStatus(status);
    } catch (error) {
      // A 401 goes back to pairing and a lost network shows the banner (app.js); else next round.
      logFailure("reading the session", error);
    }
  }

  /** The order before the first cart: empty, in the business's currency. Kept if a cart came meanwhile. */
  async function readOrder() {
    const sessionId = id();
    try {
      const order = await get(`/api/public/sessions/${sessionId}/order`);
      if (sessionId === id() && !state().order) store.set({ order });
    } catch (error) {
      logFailure("reading the order", error); // the first cart brings it anyway
    }
  }

  async function readPayment() {
    showReadPayment(await get(`/api/public/sessions/${id()}/payment`));
  }

  /** GET .../payment's answer: the card step for it, unless shown already. @param {import("./payment.js").PaymentBody} payment */
  function showReadPayment(payment) {
    const shown = state().payment;
    if (!shown || shown.client_secret !== payment.client_secret) enterPayment(payment);
    const current = state().payment; // enterPayment above opened it if it was not
    if (payment.status === "failed" && !(current && ["declined", "error"].includes(current.state))) refused(payment.failure_message, payment.failure_code);
  }

  /** A real-time event of the kiosk's channel. @param {string} name @param {any} data */
  function onEvent(name, data) {
    if (!id() || (data.session_id && data.session_id !== id())) return;
    if (name === "SessionStatusChanged") applyStatus(data); // a read on its way then reads again (refresh)
    else if (name === "OrderUpdated") {
      store.set({ order: data });
      loadMenu(); // sold-out state may have moved; the ETag makes an unchanged menu a 304
    }
    else if (name === "PaymentRequested")
      readPayment().catch((error) => {
        logFailure("reading the requested payment", error); // the event itself says enough to pay
        enterPayment(data);
      });
    else if (name === "PaymentFailed") refused(data.message, data.failure_code);
    else if (name === "PaymentCancelled") leavePayment();
    else if (name === "PaymentSucceeded") thankYou(data.order_number, data.total_cents);
    else if (name === "ReaderRefused") readerRefused(data.reader_refusal);
    else if (name === "QueueUpdated") placeInLine(data.queue);
    else if (name === "MenuItemShown") store.set({ shownItem: String(data.item_id) });
  }

  /** @param {StatusBody} body */
  function applyStatus(body) {
    const before = state().status;
    const previous = before ? before.status : null;
    store.set({ status: body });
    announceRefusal(before);
    const destination = destinationOf(body.status);
    if (previous === "payment" && body.status === "pending") leavePayment(); // the customer alone went back
    if (destination === "waiting") {
      store.set({ screen: state().alone.on ? "session" : "waiting" }); // ordering alone keeps the menu and cart
      if (state().alone.on && !state().menu.body) loadMenu();
    } else if (destination === "session") {
      const wasAlone = state().alone.on;
      // Paying alone (no agent: after a reload too) stays alone; an agent's arrival takes the cart over.
      store.set({ screen: "session", alone: body.agent ? NOT_ALONE : { ...state().alone, on: true } });
      if (!state().menu.body) loadMenu();
      if (!state().order) readOrder(); // its currency prices the menu before the first cart
      const channel = body.video_channel || id();
      if (body.agent && channel && body.medium !== "chat") video.start(channel); // a chat has no call (chat-session.js)
      if (paymentWithdrawn(previous, body.status)) leavePayment();
      if (body.agent && wasAlone) announce(t(state().locale, "alone.agent_joined", { name: body.agent.name }));
      // Only an agent who joined is announced: paying alone ("payment" with no agent) is nobody's arrival.
      else if ((body.agent || body.status === "active") && agentJustArrived(previous, body.status)) announce(agentHere(body.agent && body.agent.name, state().locale));
      else if (agentChanged(before, body)) announce(agentTookOver(body.agent && body.agent.name, state().locale));
    } else if (destination === "completed") {
      if (state().screen !== "thanks") completedWithoutEvent();
    } else {
      ended(body.end_reason);
    }
    updatePolling();
  }

  /**
   * The reader refused the agent's send to payment (ReaderRefused): kept on the status body, which
   * is still active (its next read says the same; a transition's body says null).
   * @param {StatusBody["reader_refusal"]} refusal
   */
  function readerRefused(refusal) {
    const before = state().status;
    store.set(({ status }) => ({ status: status && status.status === "active" ? { ...status, reader_refusal: refusal } : status }));
    announceRefusal(before);
  }

  /** A refusal not said yet (a new one, or the one found after a reload) is said aloud once. @param {StatusBody | null} before */
  function announceRefusal(before) {
    const now = state().status;
    const refusal = now && now.status === "active" ? now.reader_refusal : null;
    const earlier = before && before.status === "active" ? before.reader_refusal : null;
    if (refusal && (!earlier || earlier.refused_at !== refusal.refused_at)) {
      announce(agentSendRefused(refusal, now && now.agent ? now.agent.name : "", state().locale));
    }
  }

  /** A new place in line (QueueUpdated): kept on the status body, which is still pending. @param {StatusBody["queue"]} queue */
  function placeInLine(queue) {
    store.set(({ status }) => ({ status: status && status.status === "pending" ? { ...status, queue } : status }));
  }

  /** The menu in the customer's language (the browser revalidates it with its ETag). */
  async function loadMenu() {
    const sessionId = id();
    const { locale } = state();
    try {
      const body = await get(`/api/public/menu?locale=${encodeURIComponent(locale)}`);
      if (sessionId !== id() || locale !== state().locale) return;
      // Read again after every cart change (sold-out state): the same menu draws nothing anew, so
      // the list under the customer's finger is not replaced while they scroll or choose.
      const held = state().menu;
      if (!held.error && held.body && JSON.stringify(held.body) === JSON.stringify(body)) return;
      store.set({ menu: { body, error: false } });
    } catch (error) {
      logFailure("reading the menu", error); // said on the screen: the agent can tell the menu
      if (sessionId === id() && !state().menu.body) store.set({ menu: { body: null, error: true } });
    }
  }

  /** @param {import("./payment.js").PaymentBody} payment GET .../payment or PaymentRequested */
  function enterPayment(payment) {
    if (method) method.unmount();
    const chosen = paymentMethodFor(payment);
    method = chosen;
    store.set({
      payment: { ...payment, state: "ready", stateText: "", error: "", mode: chosen.mode, mounted: false },
    });
    Promise.resolve(chosen.mount(paymentForm, state().locale))
      .then(() => {
        if (method === chosen) setPayment({ mounted: true });
      })
      .catch((error) => setPayment({ state: "error", stateText: "", error: say("pay.cannot_start", { reason: failureReason(asFailure(error), state().locale) }) }));
    announce(onReader(payment) ? say("reader.instruction") : say("pay.please"));
    updatePolling();
  }

  /** @param {Partial<import("./state.js").Payment>} change */
  function setPayment(change) {
    store.set(({ payment }) => ({ payment: payment && { ...payment, ...change } }));
  }

  async function pay() {
    const payment = state().payment;
    if (!method || !payment || payment.state === "processing") return;
    setPayment({ state: "processing", stateText: say("pay.processing"), error: "" });
    try {
      await method.pay();
      // Accepted by the processor: the service confirms through PaymentSucceeded (or the status).
      const shown = state().payment;
      if (shown && shown.state === "processing") setPayment({ stateText: say("pay.confirming") });
      if (!state().live) setTimeout(refresh, 500);
    } catch (error) {
      if (error instanceof CardRefused) notTaken(error.code, error.message);
      else setPayment({ state: "ready", stateText: "", error: say("pay.try_again", { reason: failureReason(asFailure(error), state().locale) }) });
    }
  }

  /** The processor's direct answer: the card was not taken. @param {string} code @param {string} message */
  function notTaken(code, message) {
    const { state: shown, words, clear } = cardRefusal(code, message, state().locale);
    if (shown === "declined") return refused(message, code);
    setPayment({ state: shown, stateText: "", error: words });
    if (clear && method) method.clear();
    announce(words);
  }

  /**
   * The card was declined (the service's word, or the processor's).
   * @param {string | null | undefined} message @param {string | null | undefined} [code] the processor's cause
   */
  function refused(message, code) {
    const shown = state().payment;
    if (!shown) return;
    if (onReader(shown)) {
      // Said from the processor's code in the customer's language when drawn (reader.js); the
      // same payment goes back to the reader for another card.
      setPayment({ state: "declined", stateText: "", error: "", failure_message: message || "", failure_code: code || "" });
      announce(readerRefusal(code, state().locale));
      return;
    }
    // The processor's direct answer already said a passing fault in its own words; the service's
    // PaymentFailed that follows it carries no cause, so it does not turn it into a decline.
    if (shown.state === "error" && shown.error) return;
    // Already said (the processor's direct answer, then the service's PaymentFailed for the same
    // attempt): the customer may be typing the next card, which clearing again would wipe.
    if (shown.state === "declined") return;
    const words = declined(code, state().locale);
    setPayment({ state: "declined", stateText: "", error: words, failure_message: message || "", failure_code: code || "" });
    if (method) method.clear();
    announce(words);
  }

  /** The reader cannot take the card and the owner allows it: pay with the card fields instead. */
  async function payWithCardFields() {
    const payment = state().payment;
    if (!payment || !onReader(payment) || payment.state === "processing") return;
    setPayment({ state: "processing", stateText: "", error: "" });
    try {
      enterPayment(await post(`/api/public/sessions/${id()}/payment/card-fields`, {}));
    } catch (error) {
      setPayment({ state: "ready", stateText: "", error: say("pay.try_again", { reason: failureReason(asFailure(error), state().locale) }) });
    }
  }

  function leavePayment() {
    if (method) method.unmount();
    method = null;
    paymentForm.replaceChildren();
    store.set({ payment: null });
    updatePolling();
  }

  async function completedWithoutEvent() {
    const sessionId = id();
    try {
      const order = await get(`/api/public/sessions/${sessionId}/order`);
      if (sessionId !== id()) return; // PaymentSucceeded came first and said it all
      const number = paidOrderNumber(order);
      if (number) return thankYou(number, order.total_cents);
    } catch (error) {
      logFailure("reading the paid order", error); // the ending below still shows
    }
    if (sessionId === id()) ended("completed");
  }

  /** @param {string} orderNumber @param {number} totalCents */
  function thankYou(orderNumber, totalCents) {
    const { order, payment, sessionId } = state();
    if (!sessionId) return;
    const currency = (order && order.currency) || (payment && payment.currency) || "USD";
    const demo = Boolean(method && method.mode === "demo");
    close();
    // The cart as last seen until the server's paid order (with its receipt) is read (receipt.js).
    const thanks = { orderNumber, totalCents, currency, demo, sessionId, order, receiptUrl: null };
    store.set({ thanks, screen: "thanks" });
    announce(say("thanks.announce", { number: orderNumber }));
    onFinished("thanks");
  }

  /** @param {string | null | undefined} reason */
  function ended(reason) {
    if (!id()) return; // told twice (the event and a poll)
    close();
    if (reason === "kiosk_cancelled") return onFinished("cancelled");
    store.set({ ended: { reason: reason || "", ...ending(reason, state().locale) }, screen: "ended" });
    onFinished("ended");
  }

  /**
   * The customer walks away (cancel while waiting, leave while with the agent), or nobody answered
   * "Are you still there?" (reason "inactivity": counted apart from a customer's own cancel).
   * @param {"" | "inactivity"} reason
   */
  async function cancel(reason) {
    const sessionId = id();
    if (!sessionId) return;
    try {
      // Paying alone: the payment is taken back first (a session in payment is not cancelled).
      const { status, alone } = state();
      const payingAlone = status && status.status === "payment" && alone.on;
      if (payingAlone) await post(`/api/public/sessions/${sessionId}/payment/cancel`);
      await post(`/api/public/sessions/${sessionId}/cancel`, reason ? { reason } : undefined);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === 0) throw error;
      // 409: it ended meanwhile (accepted, paid, timed out): the status says what happened.
      return refresh();
    }
    close();
    onFinished("cancelled");
  }

  function close() {
    device.sessionClosed();
    leavePayment();
    video.stop();
    store.set(NO_SESSION);
    updatePolling();
  }

  return {
    start,
    changeLocale,
    resumeAfterReload,
    setLive,
    refresh,
    onEvent,
    pay,
    payWithCardFields,
    cancel,
    close,
    isOpen: open,
    loadMenu,
    showPayment: enterPayment,
    leavePayment,
    changeAccessible,
  };
}
