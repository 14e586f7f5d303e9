// The sessions the agent holds beside the one in hand: read from GET /api/sessions/current's
// `held` (after a reload, an accept, an end, and every `HELD_POLL_MS` while there are any), each
// one's chat read after its last message at the same pace (the customer's messages come on the
// session's call channel, which only the session in hand joins), replies sent from the card, and
// what became of a session that left the agent's hands (paid, ended) read once. The cards and the
// opened one are state (state.js `held`, `viewed`); views.js draws them.
import { interpolate, pgettext } from "../common/gettext.js";
import { readAfter, lastId, sendFailed, sent } from "../common/chat-log.js";
import { asFailure, logFailure } from "../common/report.js";
import { finishText } from "./cart-state.js";
import { sendRefusal } from "./chat-state.js";
import { markSeen, mergeHeld, withCardMessages } from "./held-state.js";

const HELD_POLL_MS = 2000;

/**
 * @typedef {import("./state.js").AgentState} AgentState
 * @typedef {import("./held-state.js").HeldCard} HeldCard
 */

/**
 * @param {import("../common/store.js").Store<AgentState>} store
 * @param {{get: (path: string) => Promise<any>, post: (path: string, body?: any) => Promise<any>, announce: (text: string) => void, maxLength: number}} deps
 */
export function createHeld(store, { get, post, announce, maxLength }) {
  let timer = 0;
  let stopped = false;
  const inHand = () => {
    const session = store.get().session;
    return session ? session.id : null;
  };

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
    schedule();
  }

  function schedule() {
    window.clearTimeout(timer);
    if (stopped || !store.get().held.some((card) => !card.outcome)) return;
    timer = window.setTimeout(poll, HELD_POLL_MS);
  }

  async function poll() {
    try {
      const current = await get("/api/sessions/current");
      load(current.held);
      store.get().held.filter((card) => !card.outcome).forEach((card) => readChat(card.session.id));
    } catch (caught) {
      const error = asFailure(caught);
      if (error.status !== 401) logFailure("reading the sessions held", error); // a 401 goes to sign-in
      schedule();
    }
  }

  /** @param {string} id */
  async function readChat(id) {
    const card = store.get().held.find((c) => c.session.id === id);
    if (!card) return;
    try {
      const messages = await readAfter(get, `/api/sessions/${id}/chat`, lastId(card.chat));
      const before = store.get().held.find((c) => c.session.id === id);
      update(id, (c) => withCardMessages(c, messages));
      const after = store.get().held.find((c) => c.session.id === id);
      const fresh = before && after ? after.chat.messages.length - before.chat.messages.length : 0;
      if (fresh > 0 && messages.some((m) => m.sender === "kiosk")) {
        announce(interpolate(pgettext("agent", "%(kiosk)s wrote to you."), { kiosk: card.session.kiosk.name }));
      }
    } catch (caught) {
      const error = asFailure(caught);
      if (error.status !== 401 && error.status !== 404) logFailure("reading a held session's chat", error);
    }
  }

  /** A card no longer held: paid, ended, or handed on. Read once, said on the card. @param {string} id */
  async function readOutcome(id) {
    let outcome = pgettext("agent", "No longer with you.");
    try {
      const body = await get(`/api/sessions/${id}`);
      const paid = body.session.status === "completed" && body.order && body.order.paid;
      if (body.session.handed_over_to) outcome = interpolate(pgettext("agent", "Now served by %(name)s."), { name: body.session.handed_over_to.name });
      else if (["completed", "abandoned", "failed"].includes(body.session.status)) outcome = `${paid ? "paid:" : ""}${finishText(body.session, body.order)}`;
      else return; // held again (a payment taken back): the next read shows it
    } catch (caught) {
      const error = asFailure(caught);
      if (error.status === 401) return;
    }
    const card = store.get().held.find((c) => c.session.id === id);
    update(id, (c) => ({ ...c, outcome }));
    if (card) announce(`${card.session.kiosk.name}: ${outcome.replace(/^paid:/, "")}`);
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
    reply,
    view,
    /** @param {string} id @param {string} draft */
    type: (id, draft) => update(id, (c) => ({ ...c, chat: { ...c.chat, draft } })),
    /** A card whose session left the agent goes. @param {string} id */
    dismiss: (id) => store.set(({ held, viewed }) => ({ held: held.filter((card) => card.session.id !== id), viewed: viewed === id ? null : viewed })),
    stop() {
      stopped = true;
      window.clearTimeout(timer);
    },
  };
}
