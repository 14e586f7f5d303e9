// Eat in or take away (the kitchen ticket and the receipt say which): on the payment step the
// customer is asked (unless the owner turned the question off: GET .../dining says `ask`), and the
// answer is saved on the order at once (POST .../dining). It never holds the card form back: an
// order paid without an answer is "not asked" for the kitchen and the webhook, and the payment is
// never kept waiting on it. Whether to ask is read as the session opens, long before its payment
// step, so the question is drawn with the card fields and never pushes them down under the
// customer's finger; until that read answers (a reload straight into the payment step) the
// kiosk goes by its business's last answer, which the device keeps (device.js).
import { asFailure, logFailure } from "../common/report.js";
import { watch } from "../common/store.js";
import { byId, showError } from "../common/ui.js";
import { t } from "./messages.js";
import { failureReason } from "./words.js";

/** @typedef {{sessionId: string | null, ask: boolean, choice: string | null, saving: boolean, error: string}} Dining */

/** @type {Dining} */
const NOT_ASKED = { sessionId: null, ask: false, choice: null, saving: false, error: "" };

/**
 * @param {object} deps
 * @param {import("../common/store.js").Store<import("./state.js").KioskState>} deps.store
 * @param {(path: string) => Promise<any>} deps.get
 * @param {(path: string, body: any) => Promise<any>} deps.post
 * @param {{asks: () => boolean, asked: (ask: boolean) => void}} deps.known the business's last answer to "ask?", kept by the device
 */
export function createDining({ store, get, post, known }) {
  const change = (/** @type {Partial<Dining>} */ patch) => store.set(({ dining }) => ({ dining: { ...dining, ...patch } }));

  // A session opens: whether to ask (and the answer so far, after a reload) read once, before its payment step.
  watch(store, (s) => s.sessionId, async (sessionId) => {
    if (!sessionId || store.get().dining.sessionId === sessionId) return;
    store.set({ dining: { ...NOT_ASKED, sessionId, ask: known.asks() } });
    try {
      const body = await get(`/api/public/sessions/${sessionId}/dining`);
      known.asked(body.ask);
      if (store.get().dining.sessionId === sessionId) change({ ask: body.ask, choice: body.dining });
    } catch (error) {
      logFailure("reading whether to ask eat in or take away", error); // the card form works without it
    }
  });

  /** @param {"eat_in" | "take_away"} choice */
  async function choose(choice) {
    const { sessionId, saving } = store.get().dining;
    if (!sessionId || saving) return;
    change({ saving: true, error: "" });
    try {
      const body = await post(`/api/public/sessions/${sessionId}/dining`, { dining: choice });
      change({ choice: body.dining, saving: false });
    } catch (error) {
      change({ saving: false, error: t(store.get().locale, "dining.error", { reason: failureReason(asFailure(error), store.get().locale) }) });
    }
  }
  return { choose };
}

/**
 * @param {import("../common/store.js").Store<import("./state.js").KioskState>} store
 * @param {(choice: "eat_in" | "take_away") => void} choose
 */
export function renderDining(store, choose) {
  const buttons = { eat_in: byId("dining-eat-in"), take_away: byId("dining-take-away") };
  buttons.eat_in.addEventListener("click", () => choose("eat_in"));
  buttons.take_away.addEventListener("click", () => choose("take_away"));
  const shown = (/** @type {import("./state.js").KioskState} */ s) => JSON.stringify([s.dining, Boolean(s.payment), s.sessionId]);
  watch(store, shown, (_, state) => {
    const dining = state.dining;
    byId("dining").hidden = !(dining.ask && state.payment && dining.sessionId === state.sessionId);
    for (const [value, button] of Object.entries(buttons)) {
      button.setAttribute("aria-pressed", String(dining.choice === value));
      /** @type {HTMLButtonElement} */ (button).disabled = dining.saving;
    }
    showError(byId("dining-error"), dining.error);
  });
}
