// The sessions the agent holds beside the one in hand: read from GET /api/sessions/current's
// `held` (after a reload, an accept, an end), then kept by the agent's channel: SessionUpdated (a
// card's session read: its payment and the reader's status, its cart, the customer's accessible
// mode, its end) and ChatMessage (the customer's message on a card; the session's call channel is
// joined only for the session in hand). While the channel is down, main.js calls `refresh` with the
// feed's timed polls (and once when it is back): the cards and their chats read again. Replies are
// sent from the card. The cards and the opened one are state (state.js `held`, `viewed`); views.js
// and held-views.js draw them. An outcome card ("Paid: order 7, $3.80.") stays until dismissed,
// across a reload too: the tab keeps its session's id (sessionStorage, per agent) and a reload
// reads the session again, so what the card says is the server's.
import { interpolate, pgettext } from "../common/gettext.js";
import { readAfter, lastId, sendFailed, sent } from "../common/chat-log.js";
import { asFailure, logFailure } from "../common/report.js";
import { cartRefusal, changeLine, linesToSend, refusedLines } from "./cart-state.js";
import { sendRefusal } from "./chat-state.js";
import { cartLockedWords, markSeen, mergeHeld, outcomeIds, outcomeOf, outcomesKey, restoredOutcomes, withCardMessages, withOrder } from "./held-state.js";

/**
 * @typedef {import("./state.js").AgentState} AgentState
 * @typedef {import("./held-state.js").HeldCard} HeldCard
 */

/**
 * @param {import("../common/store.js").Store<AgentState>} store
 * @param {{get: (path: string) => Promise<any>, post: (path: string, body?: any) => Promise<any>, announce: (text: string) => void, maxLength: number,
 *   ask: (item: import("./state.js").MenuItem) => Promise<import("./modifiers.js").Chosen | null>}} deps ask: the modifier dialog (the session in hand's)
 */
export function createHeld(store, { get, post, announce, maxLength, ask }) {
  /** @type {Map<string, Promise<unknown>>} each card's carts are sent one after another */
  const syncs = new Map();
  const inHand = () => {
    const session = store.get().session;
    return session ? session.id : null;
  };
  /** @param {string} id */
  const cardOf = (id) => store.get().held.find((card) => card.session.id === id);

  /** @param {string} id @param {(card: HeldCard) => HeldCard} change */
  const update = (id, change) =>
    store.set(({ held, viewed }) => ({
      held: held.map((card) => {
        if (card.session.id !== id) return card;
        const next = change(card);
        return viewed === id ? markSeen(next) : next; // what is on the main view is seen
      }),
    }));

  /** What the agent holds, as GET /api/sessions/current said it. @param {import("./held-state.js").HeldRead[]} reads */
  function load(reads) {
    const before = store.get().held;
    const { cards, left } = mergeHeld(before, reads || [], inHand());
    const added = cards.filter((card) => !before.some((old) => old.session.id === card.session.id));
    store.set(({ viewed }) => ({ held: cards, viewed: viewed && viewed === inHand() ? null : viewed }));
    added.forEach((card) => readChat(card.session.id));
    left.forEach(readOutcome);
  }

  /** The cards and their chats read again: while the agent's channel is down, and once it is back. */
  async function refresh() {
    try {
      const current = await get("/api/sessions/current");
      load(current.held);
      store.get().held.filter((card) => !card.outcome).forEach((card) => readChat(card.session.id));
    } catch (caught) {
      const error = asFailure(caught);
      if (error.status !== 401) logFailure("reading the sessions held", error); // a 401 goes to sign-in
    }
  }

  /**
   * SessionUpdated for a card: its session, order and payment as the server has them now, or what
   * became of it (paid, ended, handed on). Another session's news is not a card's.
   * @param {import("./held-state.js").HeldRead & {session: any}} read
   */
  function apply(read) {
    const card = cardOf(read.session.id);
    if (!card || card.outcome) return;
    const outcome = outcomeOf(read);
    update(card.session.id, (c) => ({ ...withOrder(c, read.order), session: { ...c.session, ...read.session }, payment: read.payment, outcome }));
    if (outcome) announce(`${card.session.kiosk.name}: ${outcome.replace(/^paid:/, "")}`);
  }

  /** @param {string} id @param {import("../common/chat-log.js").ChatMessage[]} messages */
  function addMessages(id, messages) {
    const card = cardOf(id);
    if (!card) return;
    const before = card.chat.messages.length;
    update(id, (c) => withCardMessages(c, messages));
    const after = cardOf(id);
    if (after && after.chat.messages.length > before && messages.some((m) => m.sender === "kiosk")) {
      announce(interpolate(pgettext("agent", "%(kiosk)s wrote to you."), { kiosk: card.session.kiosk.name }));
    }
  }

  /** @param {string} id */
  async function readChat(id) {
    const card = cardOf(id);
    if (!card) return;
    try {
      addMessages(id, await readAfter(get, `/api/sessions/${id}/chat`, lastId(card.chat)));
    } catch (caught) {
      const error = asFailure(caught);
      if (error.status !== 401 && error.status !== 404) logFailure("reading a held session's chat", error);
    }
  }

  /** A card no longer held (the read of what the agent holds left it out): read once, said on the card. @param {string} id */
  async function readOutcome(id) {
    let outcome = pgettext("agent", "No longer with you.");
    try {
      outcome = outcomeOf(await get(`/api/sessions/${id}`));
      if (!outcome) return; // held again (a payment taken back): the next read shows it
    } catch (caught) {
      const error = asFailure(caught);
      if (error.status === 401) return;
    }
    const card = cardOf(id);
    update(id, (c) => ({ ...c, outcome }));
    if (card) announce(`${card.session.kiosk.name}: ${outcome.replace(/^paid:/, "")}`);
  }

  /**
   * Once, after the first read of what is held: the outcome cards this tab showed before a reload,
   * each read again from the server (a session no longer readable, 404, is forgotten); from then
   * on the tab keeps the ids of the outcome cards shown. @param {string} agentId
   */
  async function restoreOutcomes(agentId) {
    const key = outcomesKey(agentId);
    /** @type {string[]} */
    let ids = [];
    try {
      ids = JSON.parse(window.sessionStorage.getItem(key) || "[]");
    } catch (unreadable) {
      ids = []; // not what this tab wrote: nothing to bring back
    }
    const reads = await Promise.all(
      (Array.isArray(ids) ? ids : []).map((id) =>
        get(`/api/sessions/${encodeURIComponent(String(id))}`).catch((caught) => {
          const error = asFailure(caught);
          if (error.status !== 401 && error.status !== 404) logFailure("reading an outcome kept across a reload", error);
          return null;
        }),
      ),
    );
    store.set(({ held }) => ({ held: [...held, ...restoredOutcomes(held, reads.filter(Boolean), inHand())] }));
    const keep = (/** @type {HeldCard[]} */ cards) => window.sessionStorage.setItem(key, JSON.stringify(outcomeIds(cards)));
    keep(store.get().held);
    store.subscribe((state, previous) => {
      if (state.held !== previous.held) keep(state.held);
    });
  }

  // --- the opened card's cart: the session in hand's editor (views.js fillCart), its own lines ---

  /** @param {string} id @param {(cart: import("./held-state.js").HeldCart) => Partial<import("./held-state.js").HeldCart>} change */
  const updateCart = (id, change) => update(id, (c) => ({ ...c, cart: { ...c.cart, ...change(c.cart) } }));

  /** Whether the card's cart may change now; if not, why is said on the card. @param {string} id */
  function editable(id) {
    const card = cardOf(id);
    if (!card) return false;
    const locked = cartLockedWords(card);
    if (locked) updateCart(id, () => ({ error: locked }));
    return !locked;
  }

  /** A menu item added to the card's cart (its options asked first). @param {string} id @param {import("./state.js").MenuItem} item */
  async function choose(id, item) {
    if (!editable(id)) return;
    const chosen = item.modifier_groups.length ? await ask(item) : { optionIds: [], labels: [] };
    if (!chosen || !editable(id)) return;
    /** @type {import("./cart-state.js").Line} */
    const line = { menu_item_id: item.id, name: item.name, quantity: 1, modifier_option_ids: chosen.optionIds, modifiers: chosen.labels, notes: "" };
    updateCart(id, (cart) => ({ lines: [...cart.lines, line] }));
    announce(`${item.name} added.`);
    sync(id);
  }

  /** @param {string} id @param {number} index @param {Partial<import("./cart-state.js").Line>} change */
  function change(id, index, change) {
    if (!editable(id)) return;
    updateCart(id, (cart) => ({ lines: changeLine(cart.lines, index, change) }));
    sync(id);
  }

  /** @param {string} id */
  function sync(id) {
    const card = cardOf(id);
    if (!card) return;
    const wanted = card.cart.lines;
    updateCart(id, () => ({ saving: true }));
    const next = (syncs.get(id) || Promise.resolve()).then(() => sendCart(id, wanted));
    syncs.set(id, next);
    next.then(() => {
      if (syncs.get(id) !== next) return; // another change is on its way
      syncs.delete(id);
      updateCart(id, () => ({ saving: false }));
    });
  }

  /** The whole cart, as for the session in hand (POST /api/orders: replace semantics). @param {string} id @param {import("./cart-state.js").Line[]} wanted */
  async function sendCart(id, wanted) {
    try {
      const order = await post("/api/orders", { session_id: id, lines: linesToSend(wanted) });
      update(id, (c) => ({ ...c, order, cart: { ...c.cart, saved: wanted, lineErrors: {}, error: "" } }));
    } catch (caught) {
      const error = asFailure(caught);
      if (error.status === 401) return; // sent again as it is once the agent signs in (the next change)
      // The cart on screen is the server's: back to the saved lines, the refusal said.
      const refused = /** @type {import("./cart-state.js").LineErrors | undefined} the 422's lines */ (error.status === 422 && error.details ? error.details.lines : undefined);
      update(id, (c) => ({ ...c, cart: { ...c.cart, lines: c.cart.saved, lineErrors: refusedLines(refused, c.order), error: cartRefusal(error, c.order) } }));
    }
  }

  /** The reply typed on a card, sent. @param {string} id */
  async function reply(id) {
    const card = store.get().held.find((c) => c.session.id === id);
    if (!card) return;
    const text = card.chat.draft;
    if (!text.trim() || text.trim().length > maxLength || card.chat.sending) return;
    update(id, (c) => ({ ...c, chat: { ...c.chat, sending: true, error: "" } }));
    try {
      const message = await post(`/api/sessions/${id}/chat`, { text });
      update(id, (c) => markSeen({ ...c, chat: sent(c.chat, message, text) }));
    } catch (caught) {
      update(id, (c) => ({ ...c, chat: sendFailed(c.chat, sendRefusal(asFailure(caught))) }));
    }
  }

  /** Shows a card on the main view (null: the session in hand). @param {string | null} id */
  function view(id) {
    store.set(({ held }) => ({ viewed: id, held: id ? held.map((card) => (card.session.id === id ? markSeen(card) : card)) : held }));
  }

  return {
    load,
    refresh,
    restoreOutcomes,
    apply,
    choose,
    change,
    /** ChatMessage on the agent's channel: a customer wrote on a card. @param {import("../common/chat-log.js").ChatMessage} message */
    heard: (message) => addMessages(message.session_id, [message]),
    reply,
    view,
    /** @param {string} id @param {string} draft */
    type: (id, draft) => update(id, (c) => ({ ...c, chat: { ...c.chat, draft } })),
    /** A card whose session left the agent goes. @param {string} id */
    dismiss: (id) => store.set(({ held, viewed }) => ({ held: held.filter((card) => card.session.id !== id), viewed: viewed === id ? null : viewed })),
  };
}
