// Ordering alone while waiting: the customer builds the cart from the menu
// (POST /api/public/sessions/{id}/order, the whole cart each time) and pays with the kiosk's card
// step (POST .../payment; POST .../payment/cancel goes back to the cart and the queue). The session
// stays in the queue: when an agent accepts, session.js switches to the agent with the same cart.
// Everything it learns goes into the store; views.js draws it.
import { ApiError } from "../common/http.js";
import { logFailure } from "../common/report.js";
import { post } from "./api.js";
import { device } from "./device.js";
import { NOT_ALONE, aloneRefusal, choiceProblem, linesOf, offersSelfService, toggleOption, withItem, withQuantity } from "./self-service.js";

/**
 * @typedef {import("./state.js").KioskState} KioskState
 * @typedef {import("./self-service.js").CartLineIn} CartLineIn
 * @typedef {import("./self-service.js").Item} Item
 */

/**
 * @param {object} deps
 * @param {import("../common/store.js").Store<KioskState>} deps.store
 * @param {ReturnType<typeof import("./session.js").createSession>} deps.session
 * @param {(text: string) => void} deps.announce
 */
export function createAlone({ store, session, announce }) {
  const state = store.get;
  /** @param {Partial<import("./self-service.js").Alone>} change */
  const setAlone = (change) => store.set(({ alone }) => ({ alone: { ...alone, ...change } }));

  /** Whether the waiting screen offers it now (the wait grows with the clock, so app.js ticks). */
  function check() {
    store.set({ aloneOffered: offersSelfService(state().status, Date.now()) });
  }

  /** "Order on your own": the menu and the cart, still in the queue. */
  async function start() {
    const { sessionId, status, order } = state();
    if (!sessionId || !status || status.status !== "pending") return;
    store.set({ alone: { ...NOT_ALONE, on: true }, screen: "session" });
    session.loadMenu();
    // An empty cart marks the session as ordering alone (its pending timeout counts from the
    // last cart change); a cart already there is kept as it is.
    if (!(order && order.lines && order.lines.length)) await send([]);
  }

  /** Cart posts go one after another, so the server ends with the last cart asked for. */
  let sending = Promise.resolve();
  let latest = 0;
  /** The cart as the server last accepted it (kept with the open session, device.js). */
  const accepted = () => (device.openSession && device.openSession.alone) || [];

  /** @param {string} itemId */
  function choose(itemId) {
    const item = itemOf(itemId);
    if (!item || state().payment) return;
    if ((item.modifier_groups || []).length) return setAlone({ picking: { itemId, chosen: [], error: "" } });
    send(withItem(state().alone.lines, itemId, []));
  }

  /** @param {string} optionId */
  function toggle(optionId) {
    const { picking } = state().alone;
    const item = picking && itemOf(picking.itemId);
    if (!picking || !item) return;
    setAlone({ picking: { ...picking, chosen: toggleOption(item, picking.chosen, optionId), error: "" } });
  }

  function confirm() {
    const { picking, lines } = state().alone;
    const item = picking && itemOf(picking.itemId);
    if (!picking || !item) return;
    const problem = choiceProblem(item, picking.chosen, state().locale);
    if (problem) {
      setAlone({ picking: { ...picking, error: problem } });
      return announce(problem);
    }
    setAlone({ picking: null });
    send(withItem(lines, item.id, picking.chosen));
  }

  const cancelPick = () => state().alone.picking && setAlone({ picking: null });

  /** @param {number} index @param {number} delta */
  function change(index, delta) {
    if (state().payment) return;
    send(withQuantity(state().alone.lines, index, delta));
  }

  /**
   * The whole cart to the server. A tap counts at once (the next tap builds on it) while the posts
   * go in order; the last answer is what the cart is, and a refusal puts back the last accepted one.
   * @param {CartLineIn[]} lines
   */
  function send(lines) {
    const sessionId = state().sessionId;
    const ticket = ++latest;
    setAlone({ lines, busy: true, error: "" });
    sending = sending.then(async () => {
      try {
        const order = await post(`/api/public/sessions/${sessionId}/order`, { lines });
        if (sessionId !== state().sessionId) return;
        device.aloneCart(linesOf(order)); // a reload resumes it
        if (ticket !== latest || !state().alone.on) return;
        store.set({ order });
        setAlone({ lines: linesOf(order), busy: false });
      } catch (error) {
        if (ticket !== latest || sessionId !== state().sessionId) return;
        setAlone({ lines: accepted() });
        refused("changing the cart alone", error);
      }
    });
    return sending;
  }

  async function pay() {
    await sending; // the cart asked for last is the one paid
    const { sessionId, alone, payment } = state();
    if (!sessionId || alone.busy || payment) return;
    setAlone({ busy: true, error: "" });
    try {
      const answer = await post(`/api/public/sessions/${sessionId}/payment`);
      if (sessionId !== state().sessionId) return;
      setAlone({ busy: false });
      const shown = state().payment; // PaymentRequested may have come first with the same payment
      if (!shown || shown.client_secret !== answer.payment.client_secret) session.showPayment(answer.payment);
      store.set(({ status }) => ({ status: status && { ...status, status: "payment", queue: null } }));
    } catch (error) {
      refused("paying alone", error);
    }
  }

  /** Back from the card step to the cart (and to the queue). */
  async function back() {
    const { sessionId, alone } = state();
    if (!sessionId || alone.busy) return;
    setAlone({ busy: true, error: "" });
    try {
      await post(`/api/public/sessions/${sessionId}/payment/cancel`);
      if (sessionId !== state().sessionId) return;
      setAlone({ busy: false });
      session.leavePayment();
      await session.refresh();
    } catch (error) {
      refused("going back from the payment", error);
    }
  }

  /** @param {string} what @param {any} error */
  function refused(what, error) {
    if (!(error instanceof ApiError)) logFailure(what, error);
    const words = aloneRefusal(error, state().locale);
    setAlone({ busy: false, error: words });
    announce(words);
    // An agent joined, or the session moved on: the status says what happens now.
    if (error.status === 409) session.refresh();
  }

  /** @param {string} itemId @returns {Item | null} */
  function itemOf(itemId) {
    const body = /** @type {any} */ (state().menu.body);
    for (const category of (body && body.categories) || []) {
      const item = category.menu_items.find((/** @type {Item} */ candidate) => candidate.id === itemId);
      if (item) return item;
    }
    return null;
  }

  return { check, start, choose, toggle, confirm, cancelPick, change, pay, back, itemOf };
}
