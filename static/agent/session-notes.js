// What the agent is told about a session's customer, as lines drawn in one place for every card
// of a session: the offer's card, each held session's card and the card opened on the main view
// (views.js and held-views.js call it for each). A new fact about the customer is one more line
// here, and every card says it. The session in hand's view draws the same lines but the accessible
// mode's, which accessible.js keeps there with its "Read the cart aloud" (and says when it changes).
import { pgettext } from "../common/gettext.js";
import { el } from "../common/ui.js";
import { accessibleNote } from "./accessible.js";

/** @typedef {{medium?: string, accessible_mode?: boolean}} Described a session as the agent API describes it (an offer, a session read) */

/** A chat session's line, else null. @param {Described} session */
export const mediumNote = (session) =>
  session.medium === "chat" ? el("p", { class: "session-note medium-note", text: pgettext("agent", "Text chat: the customer writes and is not on camera.") }) : null;

/** The lines about this session's customer, as nodes to append (a fresh set for each card). @param {Described} session @returns {HTMLElement[]} */
export function sessionNotes(session) {
  return [accessibleNote(session), mediumNote(session)].filter((note) => note !== null);
}
