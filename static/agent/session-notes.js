// What the agent is told about a session's customer, as lines drawn in one place for every view
// of a session: the offer's card, the session header (the session in hand), each held session's
// card and the card opened on the main view (views.js and held-views.js call it for each). A new fact about the customer (say, how
// they use the kiosk) is one more line here, and every view of the session says it.
import { pgettext } from "../common/gettext.js";
import { el } from "../common/ui.js";

/**
 * The lines about this session's customer, as nodes to append (a fresh set for each view).
 * @param {{medium?: string}} session a session as the agent API describes it (an offer, a session read) @returns {HTMLElement[]}
 */
export function sessionNotes(session) {
  /** @type {HTMLElement[]} */
  const notes = [];
  if (session.medium === "chat") notes.push(el("p", { class: "session-note medium-note", text: pgettext("agent", "Text chat: the customer writes and is not on camera.") }));
  return notes;
}
