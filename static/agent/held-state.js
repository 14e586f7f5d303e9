// The sessions an agent holds beside the one in hand (the video conversation, on the main view):
// each a card that says what the customer is doing (paying, with the reader's status; paid;
// declined; writing in the chat, with the unread count) and keeps its chat and reply. Pure,
// unit-tested (tests/js/agent-held.test.js); held.js acts, views.js draws.
import { interpolate, npgettext, pgettext } from "../common/gettext.js";
import { withMessages } from "../common/chat-log.js";
import { finishText, linesOf, paymentView } from "./cart-state.js";

/**
 * @typedef {import("./state.js").Session & {medium?: string}} HeldSession
 * @typedef {{session: HeldSession, order: import("./cart-state.js").Order | null, payment: import("./payment-words.js").Payment | null}} HeldRead
 *   one entry of GET /api/sessions/current's `held`
 * @typedef {object} HeldCard
 * @property {HeldSession} session
 * @property {import("./cart-state.js").Order | null} order
 * @property {import("./payment-words.js").Payment | null} payment
 * @property {import("../common/chat-log.js").Chat} chat its conversation with the customer (sessionId: the card's)
 * @property {number} seen the newest message id the agent has seen (read from the card or the opened view)
 * @property {string} outcome once it left the agent's hands: what became of it ("" while held)
 * @property {HeldCart} cart its cart as the opened card's editor builds it (the session in hand's editor, views.js fillCart)
 */

/**
 * @typedef {object} HeldCart
 * @property {import("./cart-state.js").Line[]} lines the cart the agent builds
 * @property {import("./cart-state.js").Line[]} saved the lines the server last saved: what a refused change goes back to
 * @property {import("./cart-state.js").LineErrors} lineErrors
 * @property {string} error why the last change was not saved, in words
 * @property {boolean} saving a cart is on its way to the server
 */

/** A card's cart as its order has it. @param {import("./cart-state.js").Order | null} order @returns {HeldCart} */
const cartOf = (order) => ({ lines: linesOf(order), saved: linesOf(order), lineErrors: {}, error: "", saving: false });

/**
 * The card with the server's order: the editor's lines follow it unless the agent's own change is
 * on its way or was refused (its words stay until the next change). @param {HeldCard} card @param {import("./cart-state.js").Order | null} order
 */
export function withOrder(card, order) {
  const { cart } = card;
  const editing = cart.saving || cart.error || JSON.stringify(cart.lines) !== JSON.stringify(cart.saved);
  return { ...card, order, cart: editing ? cart : cartOf(order) };
}

/** Why a card's cart cannot change now, in words ("" when it can): the server's rule (409 ORDER_LOCKED). @param {HeldCard} card */
export const cartLockedWords = (card) =>
  card.outcome ? pgettext("agent", "This session is no longer with you.") : card.session.status === "payment" ? pgettext("agent", "The cart is locked while the customer pays.") : "";

/** A card for a session newly held. @param {HeldRead} read @returns {HeldCard} */
export const newCard = ({ session, order, payment }) => ({
  session,
  order,
  payment,
  chat: { sessionId: session.id, open: true, messages: [], draft: "", sending: false, error: "" },
  seen: 0,
  outcome: "",
  cart: cartOf(order),
});

/**
 * The cards after a read of what the agent holds: known cards keep their chat, draft and what was
 * seen; new ones are added; cards no longer held stay (their outcome is read next) and are named
 * in `left`. The session in hand is never a card. @param {HeldCard[]} cards @param {HeldRead[]} held
 * @param {string | null} inHand @returns {{cards: HeldCard[], left: string[]}}
 */
export function mergeHeld(cards, held, inHand) {
  const reads = held.filter((read) => read.session.id !== inHand);
  const ids = new Set(reads.map((read) => read.session.id));
  const known = new Map(cards.map((card) => [card.session.id, card]));
  /** @type {HeldCard[]} */
  const next = reads.map((read) => {
    const card = known.get(read.session.id);
    return card ? { ...withOrder(card, read.order), session: read.session, payment: read.payment, outcome: "" } : newCard(read);
  });
  const left = cards.filter((card) => !ids.has(card.session.id) && card.session.id !== inHand && !card.outcome);
  const kept = cards.filter((card) => !ids.has(card.session.id) && card.session.id !== inHand);
  return { cards: [...next, ...kept], left: left.map((card) => card.session.id) };
}

/**
 * What became of a session no longer held, from its read (GET /api/sessions/{id}, or the channel's
 * SessionUpdated): "" while the agent still holds it; a paid end starts with "paid:" (cardView).
 * @param {{session: HeldSession & {handed_over_to?: {name: string} | null, duration_seconds?: number}, order: import("./cart-state.js").Order | null}} read
 */
export function outcomeOf({ session, order }) {
  if (session.handed_over_to) return interpolate(pgettext("agent", "Now served by %(name)s."), { name: session.handed_over_to.name });
  if (!["completed", "abandoned", "failed"].includes(session.status)) return "";
  const paid = session.status === "completed" && order && order.paid;
  return `${paid ? "paid:" : ""}${finishText(session, order)}`;
}

/**
 * Where a tab keeps the sessions whose outcome cards the agent has not dismissed (sessionStorage:
 * a reload keeps them, the tab's end forgets them), one key per agent. @param {string} agentId
 */
export const outcomesKey = (agentId) => `agent-outcomes:${agentId}`;

/** The sessions whose outcome cards are shown (what `outcomesKey` keeps). @param {HeldCard[]} cards */
export const outcomeIds = (cards) => cards.filter((card) => card.outcome).map((card) => card.session.id);

/**
 * The outcome cards a reload brings back: each kept session as the server reads it now
 * (GET /api/sessions/{id}), shown only when the read says what became of it (paid, ended, handed
 * on): a session held again is the held list's, and one already drawn is not drawn twice.
 * @param {HeldCard[]} cards @param {HeldRead[]} reads @param {string | null} inHand @returns {HeldCard[]}
 */
export function restoredOutcomes(cards, reads, inHand) {
  const drawn = new Set(cards.map((card) => card.session.id));
  return reads
    .filter((read) => read.session.id !== inHand && !drawn.has(read.session.id))
    .map((read) => ({ ...newCard(read), outcome: outcomeOf(read) }))
    .filter((card) => card.outcome);
}

/** A card's chat with these messages added (each once). @param {HeldCard} card @param {import("../common/chat-log.js").ChatMessage[]} messages */
export const withCardMessages = (card, messages) => {
  const chat = withMessages(card.chat, messages);
  return chat === card.chat ? card : { ...card, chat };
};

/**
 * The customer's messages the agent has not seen yet: those after what it saw and after its own
 * last reply (a reply answers what came before it, so a reload does not count it again).
 * @param {HeldCard} card
 */
export const unread = (card) => {
  const replied = Math.max(0, ...card.chat.messages.filter((message) => message.sender !== "kiosk").map((message) => Number(message.id)));
  const after = Math.max(card.seen, replied);
  return card.chat.messages.filter((message) => message.sender === "kiosk" && Number(message.id) > after).length;
};

/** The card with every message seen. @param {HeldCard} card */
export const markSeen = (card) => {
  const last = card.chat.messages.length ? Number(card.chat.messages[card.chat.messages.length - 1].id) : 0;
  return last > card.seen ? { ...card, seen: last } : card;
};

/** The customer's last message, for the card's preview. @param {HeldCard} card */
export const lastFromCustomer = (card) => [...card.chat.messages].reverse().find((message) => message.sender === "kiosk") || null;

/**
 * What a card shows: its kind (the card's `data-state`) and its sentence.
 * "paying" (with the reader's status where there is one), "declined" (the customer may try another
 * card), "paid", "chat" (the customer writes), "active" (a video customer not in front of the
 * agent: rare, a session restored beside the conversation), "ended".
 * @param {HeldCard} card @returns {{state: string, text: string}}
 */
export function cardView(card) {
  if (card.outcome) return { state: card.outcome.startsWith("paid:") ? "paid" : "ended", text: card.outcome.replace(/^paid:/, "") };
  const { session, order, payment } = card;
  if (session.status === "payment") {
    const view = paymentView("payment", order, payment);
    return { state: view.state === "declined" || (order && order.status === "failed") ? "declined" : "paying", text: view.text };
  }
  if (session.medium === "chat") {
    const count = unread(card);
    return {
      state: "chat",
      text: count
        ? interpolate(npgettext("agent", "%(count)s unread message", "%(count)s unread messages", count), { count })
        : pgettext("agent", "Chatting: nothing unread"),
    };
  }
  return { state: "active", text: pgettext("agent", "On video, not in front of you") };
}

/**
 * Where the keyboard's next/previous goes: the session in hand (null: the main view) and each
 * card still held, in the order drawn. @param {HeldCard[]} cards @param {string | null} viewed the
 * card on the main view (null: the session in hand) @param {1 | -1} step @returns {string | null}
 */
export function stepView(cards, viewed, step) {
  /** @type {Array<string | null>} */
  const order = [null, ...cards.filter((card) => !card.outcome).map((card) => card.session.id)];
  const at = Math.max(0, order.indexOf(viewed));
  return order[(at + step + order.length) % order.length];
}

/**
 * The dashboard's keys, by what they do: one place, drawn as the visible hint and as each
 * control's aria-keyshortcuts. Alt with a letter: free in browsers on a page (unlike Alt with a
 * digit, which switches tabs in Chromium on Linux), and it works while typing in a field.
 */
export const KEYS = Object.freeze({ accept: "Alt+A", next: "Alt+J", previous: "Alt+K", conversation: "Alt+C" });

/**
 * The action of a key press, or "" for none. @param {{altKey: boolean, ctrlKey: boolean, metaKey: boolean, shiftKey: boolean, code: string}} event
 * @returns {"" | "accept" | "next" | "previous" | "conversation"}
 */
export function keyAction(event) {
  if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return "";
  switch (event.code) {
    case "KeyA":
      return "accept";
    case "KeyJ":
      return "next";
    case "KeyK":
      return "previous";
    case "KeyC":
      return "conversation";
    default:
      return "";
  }
}

/** What an offer's card says about the customer's medium. @param {{medium?: string}} offer */
export const mediumWords = (offer) => (offer.medium === "chat" ? pgettext("agent", "Text chat") : pgettext("agent", "Video"));
