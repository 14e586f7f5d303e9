// A customer in the kiosk's accessible mode, the agent's side: the offer card and the session view
// say "Accessible mode: the customer may not see the screen" (`accessible_mode` of the offer and
// the session), and "Read the cart aloud" has the kiosk speak the cart and its total in the
// customer's language (POST /api/sessions/{id}/read-aloud; the kiosk hears CartReadAloud). The
// button is there for every session: a customer may want it without the mode.
import { interpolate, pgettext } from "../common/gettext.js";
import { asFailure } from "../common/report.js";
import { watch } from "../common/store.js";
import { byId, el } from "../common/ui.js";
import { post } from "./api.js";

/** @typedef {import("./state.js").AgentState} AgentState */

/** What the card and the session view say of a customer in accessible mode. */
export const accessibleWords = () => pgettext("agent", "Accessible mode: the customer may not see the screen");

/** The offer card's line for a customer in accessible mode, else null. @param {{accessible_mode?: boolean}} session */
export const accessibleNote = (session) => (session.accessible_mode ? el("span", { class: "accessible-mode", text: accessibleWords() }) : null);

/**
 * The session view's note and its "Read the cart aloud" button, drawn into #session-accessible.
 * @param {import("../common/store.js").Store<AgentState>} store
 * @param {{announce: (text: string) => void}} hooks
 */
export function createReadAloud(store, { announce }) {
  const note = el("p", { class: "accessible-mode", hidden: true, text: accessibleWords() });
  const button = el("button", { type: "button", class: "read-aloud", text: pgettext("agent", "Read the cart aloud"), onclick: () => readAloud() });
  byId("session-accessible").replaceChildren(note, button);

  async function readAloud() {
    const session = store.get().session;
    if (!session) return;
    try {
      await post(`/api/sessions/${session.id}/read-aloud`);
      announce(pgettext("agent", "The kiosk is reading the cart and its total aloud to the customer."));
    } catch (caught) {
      const error = asFailure(caught);
      if (error.status !== 401) store.set({ cartError: interpolate(pgettext("agent", "The cart could not be read aloud: %(why)s"), { why: error.message }) });
    }
  }

  // The session in hand: the note while the customer is in the mode. A change mid-session is
  // said too; at the session's start the note sits under its title, which the opening announces.
  let shown = { id: "", on: false };
  watch(store, (s) => (s.session ? `${s.session.id}:${Boolean(s.session.accessible_mode)}` : ""), (_, s) => {
    const now = { id: s.session ? s.session.id : "", on: Boolean(s.session && s.session.accessible_mode) };
    note.hidden = !now.on;
    if (now.id && now.id === shown.id && now.on !== shown.on) announce(now.on ? accessibleWords() : pgettext("agent", "The customer left accessible mode."));
    shown = now;
  });

  return { readAloud };
}
