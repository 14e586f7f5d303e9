// The session in hand: menu, cart (every change POSTs the whole cart: replace semantics, and the
// server's totals come back), payment as it happens (SessionUpdated on the agent's channel, main.js;
// read on the feed's timed polls while the channel is down), and ending the session. Everything it learns
// goes into the store; views.js draws it.
import { interpolate, pgettext } from "../common/gettext.js";
import { asFailure, logFailure } from "../common/report.js";
import { byId } from "../common/ui.js";
import { get, post } from "./api.js";
import { changeLine, endCheck, finishText, linesOf, linesToSend, cartRefusal, refusedLines, revertsToSaved } from "./cart-state.js";
import { ModifierDialog } from "./modifiers.js";
import { sendRefusal } from "./payment-words.js";
import { cartLocked, NO_SESSION } from "./state.js";
import { handedOverWords } from "./transfer-state.js";
import { VideoPane } from "./video.js";

const ENDED = ["completed", "abandoned", "failed"];

/**
 * @typedef {import("./state.js").AgentState} AgentState
 * @typedef {import("./state.js").Session} Session
 * @typedef {import("./cart-state.js").Line} Line
 */

/**
 * @param {import("../common/store.js").Store<AgentState>} store
 * @param {{announce: (text: string) => void, onEnded: (text: string) => void, onChat?: (event: string, data: any) => void, onVideoState?: (state: string) => void}} hooks
 */
export function createSessionActions(store, { announce, onEnded, onChat, onVideoState }) {
  const video = new VideoPane(onChat, onVideoState);
  const dialog = new ModifierDialog();
  /** @type {Promise<unknown>} every cart is sent after the one before */
  let syncing = Promise.resolve();
  let pendingSyncs = 0;
  const state = store.get;

  /** The session in hand: its actions (pay, cancel, end) are on screen only while there is one. */
  function inHand() {
    const session = state().session;
    if (!session) throw new Error("no session is open");
    return session;
  }

  /** @param {string} status @returns {(state: Readonly<import("./state.js").AgentState>) => {session: Session | null}} */
  const withStatus = (status) => ({ session }) => ({ session: session && { ...session, status } });

  /**
   * @param {Session} session @param {import("./cart-state.js").Order | null} order
   * @param {import("./payment-words.js").Payment | null} [payment]
   */
  async function open(session, order, payment = null) {
    const before = state().session;
    const same = before && before.id === session.id;
    const lines = linesOf(order);
    store.set(same ? { session, payment } : { session, lines, saved: lines, lineErrors: {}, order, payment, cartError: "" });
    if (session.medium === "chat") video.stop(); // the customer writes: no call to join
    else video.start(session.video_channel);
    try {
      const menu = await get("/api/menu");
      store.set({ menu: menu.categories });
    } catch (caught) {
      const error = asFailure(caught);
      store.set({ cartError: interpolate(pgettext("agent", "The menu could not be loaded: %(why)s"), { why: error.message }) });
    }
  }

  /** @param {import("./state.js").MenuItem} item */
  async function choose(item) {
    const chosen = item.modifier_groups.length ? await dialog.ask(item) : { optionIds: [], labels: [] };
    if (!chosen) return;
    /** @type {Line} */
    const line = { menu_item_id: item.id, name: item.name, quantity: 1, modifier_option_ids: chosen.optionIds, modifiers: chosen.labels, notes: "" };
    store.set(({ lines }) => ({ lines: [...lines, line] }));
    announce(`${item.name} added.`);
    sync();
  }

  /** @param {number} index @param {Partial<Line>} change */
  function change(index, change) {
    if (cartLocked(state())) return;
    store.set(({ lines }) => ({ lines: changeLine(lines, index, change) }));
    sync();
  }

  function sync() {
    const session = state().session;
    const wanted = state().lines;
    pendingSyncs += 1;
    store.set({ saving: true }); // tests and assistive tech can tell a cart still being saved
    syncing = syncing.then(async () => {
      await send(session, wanted);
      pendingSyncs -= 1;
      if (!pendingSyncs) store.set({ saving: false });
    });
    return syncing;
  }

  /** @param {Session | null} session @param {Line[]} wanted */
  async function send(session, wanted) {
    const now = state().session;
    if (!session || !now || session.id !== now.id) return;
    try {
      const order = await post("/api/orders", { session_id: session.id, lines: linesToSend(wanted) });
      store.set({ order, saved: wanted, lineErrors: {}, cartError: "", unsaved: null });
    } catch (caught) {
      const error = asFailure(caught);
      if (error.status === 422) {
        // The cart on screen is always the server's (never lines it refused, as if they were
        // ordered): the saved lines with their prices, and the refusal said next to its line.
        const refused = /** @type {import("./cart-state.js").LineErrors | undefined} the 422's lines */ (error.details && error.details.lines);
        store.set(({ saved, order }) => ({ lines: saved, lineErrors: refusedLines(refused, order), cartError: cartRefusal(error, order), unsaved: null }));
        return;
      }
      if (!revertsToSaved(error)) {
        store.set({ lineErrors: {}, cartError: cartRefusal(error) });
        return;
      }
      // Back to the server's last saved cart, said so, with the refused cart one tap away.
      logFailure("saving the cart", error);
      store.set(({ saved }) => ({ lines: saved, lineErrors: {}, cartError: cartRefusal(error), unsaved: wanted }));
    }
  }

  /** "Try again": the refused cart, sent once more. */
  function retry() {
    const unsaved = state().unsaved;
    if (!unsaved || cartLocked(state())) return;
    store.set({ lines: unsaved, unsaved: null, cartError: "" });
    sync();
  }

  async function sendToPayment() {
    await syncing; // what is sent to payment is the cart the server saved (a refused change went back to it)
    try {
      const body = await post(`/api/sessions/${inHand().id}/payment`);
      store.set(withStatus(body.session.status));
      store.set({ cartError: "" }); // a refusal of an earlier send (the reader was offline) is over
      // Read at once: the session read says how the card is taken (on the kiosk's reader or not);
      // what becomes of the card comes on the agent's channel (SessionUpdated).
      refresh();
    } catch (caught) {
      store.set({ cartError: sendRefusal(asFailure(caught)) });
    }
  }

  async function cancelPayment() {
    try {
      const body = await post(`/api/sessions/${inHand().id}/payment/cancel`);
      store.set(({ session, order }) => ({
        session: session && { ...session, status: body.session.status },
        order: order && { ...order, status: "draft", paid: false },
      }));
      announce(pgettext("agent", "Payment cancelled: the order can be changed."));
    } catch (caught) {
      const error = asFailure(caught);
      store.set({ cartError: interpolate(pgettext("agent", "The payment could not be cancelled: %(why)s"), { why: error.message }) });
    }
  }

  /**
   * The session read once (GET /api/sessions/{id}): after a send to payment, and while the agent's
   * channel is down (main.js calls it with the feed's timed polls, and once the link is back).
   */
  async function refresh() {
    const session = state().session;
    if (!session) return;
    try {
      apply(await get(`/api/sessions/${session.id}`));
    } catch (caught) {
      const error = asFailure(caught);
      if (error.status === 404 && state().session?.id === session.id) handedOver(pgettext("agent", "A colleague is now serving this customer.")); // transferred
      // A 401 goes to sign-in; others: try again next round.
      else if (error.status !== 401 && error.status !== 404) logFailure("reading the session", error);
    }
  }

  /**
   * What the server says of the session in hand (SessionUpdated on the agent's channel, or a
   * read): its payment, the customer's language and accessible mode, its moves and its end. The
   * cart the agent builds stays as it is. @param {{session: any, order: import("./cart-state.js").Order | null, payment: import("./payment-words.js").Payment | null}} body
   */
  function apply(body) {
    const now = state();
    if (!now.session || now.session.id !== body.session.id) return;
    const latest = body.session;
    if (latest.handed_over_to) return handedOver(handedOverWords({ agent: latest.handed_over_to }, now.session.kiosk.name));
    if (ENDED.includes(latest.status)) return finish(latest, body.order);
    const orderMoved = body.order && now.order && body.order.status !== now.order.status;
    if (JSON.stringify(body.payment || null) !== JSON.stringify(now.payment)) store.set({ payment: body.payment || null });
    // The customer changed language (CustomerLocaleChanged says it too).
    if (latest.customer_locale && latest.customer_locale !== now.session.customer_locale) {
      store.set(({ session: mine }) => ({ session: mine && { ...mine, customer_locale: latest.customer_locale } }));
    }
    const accessible = Boolean(latest.accessible_mode); // the customer turned the kiosk's accessible mode on or off
    if (accessible !== Boolean(state().session?.accessible_mode)) store.set(({ session: mine }) => ({ session: mine && { ...mine, accessible_mode: accessible } }));
    if (latest.status !== state().session?.status || orderMoved) {
      store.set(({ session: mine, order }) => ({
        session: mine && { ...mine, status: latest.status },
        order: order && body.order ? { ...order, status: body.order.status, paid: body.order.paid } : order,
      }));
    }
  }

  /** @param {boolean} confirmed the agent said yes to ending as Completed with an unpaid cart */
  async function end(confirmed) {
    const reason = byId("end-reason", HTMLSelectElement).value;
    const notes = byId("end-notes", HTMLTextAreaElement).value;
    await syncing; // the cart the check reads is the one the server has
    const problem = endCheck(reason, state().order, state().lines);
    if (problem === "reason" || (problem === "unpaid" && !confirmed)) return store.set({ ending: { problem } });
    store.set({ ending: { problem: "" } });
    try {
      const body = await post(`/api/sessions/${inHand().id}/end`, { reason, notes });
      finish(body.session, null);
    } catch (caught) {
      const error = asFailure(caught);
      if (error.code === "SESSION_ALREADY_ENDED") return refresh();
      store.set({ cartError: interpolate(pgettext("agent", "The session could not be ended: %(why)s"), { why: error.message }) });
    }
  }

  /**
   * The session in hand ended (said once: the end's answer and the channel's news of it may both
   * come). @param {{id?: string, status: string, duration_seconds?: number}} ended @param {import("./cart-state.js").Order | null} order
   */
  function finish(ended, order) {
    const mine = state().session;
    if (!mine || (ended.id && ended.id !== mine.id)) return;
    const text = finishText(ended, order);
    close();
    onEnded(text);
  }

  /** The session went to a colleague (SessionTransferred, or the poll no longer sees it). @param {string} text */
  function handedOver(text) {
    if (!state().session) return;
    close();
    onEnded(text);
  }

  /** Stops reading the session (before signing out); the session itself goes on on the server. */
  function pause() {
    video.stop();
  }

  function close() {
    store.set(NO_SESSION);
    dialog.close();
    video.stop();
  }

  byId("send-payment").addEventListener("click", sendToPayment);
  byId("cart-retry").addEventListener("click", retry);
  byId("menu-search").addEventListener("input", (event) => store.set({ menuQuery: /** @type {HTMLInputElement} */ (event.target).value }));
  byId("cancel-payment").addEventListener("click", cancelPayment);
  byId("end-form").addEventListener("submit", (event) => {
    event.preventDefault();
    end(false);
  });
  byId("end-confirm-yes").addEventListener("click", () => end(true));
  byId("end-confirm-no").addEventListener("click", () => store.set({ ending: { problem: "" } }));
  byId("end-reason").addEventListener("change", () => store.set({ ending: { problem: "" } }));

  return {
    open,
    choose,
    change,
    sync,
    pause,
    close,
    handedOver,
    refresh,
    apply,
    syncing: () => syncing,
    /** The modifier dialog, for a held card's cart. @param {import("./state.js").MenuItem} item */
    ask: (item) => dialog.ask(item),
  };
}
