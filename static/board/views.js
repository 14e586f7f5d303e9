// Draws the order board from its store: two columns of large numbers.
import { pgettext } from "../common/gettext.js";
import { watch } from "../common/store.js";
import { byId, el, showError } from "../common/ui.js";
import { columns } from "./numbers.js";

/** @param {import("../common/store.js").Store<import("./state.js").BoardState>} store */
export function renderBoard(store) {
  watch(store, (s) => s.screen, (screen) => {
    document.body.dataset.screen = screen;
    byId("screen-signin").hidden = screen !== "signin";
    byId("screen-board").hidden = screen !== "board";
  });
  watch(store, (s) => s.signinReason, (reason) => showError(byId("signin-reason"), reason));
  watch(store, (s) => s.me, (me) => {
    byId("business-name").textContent = me ? me.business.name : "";
  });
  watch(store, (s) => s.realtime, (realtime) => {
    document.body.dataset.realtime = realtime;
  });
  watch(store, (s) => s.alert, (alert) => showError(byId("alert"), alert));
  watch(store, (s) => s.sound, (sound) => {
    const button = byId("sound");
    button.setAttribute("aria-pressed", String(sound));
    button.textContent = sound ? pgettext("display", "Chime on") : pgettext("display", "Turn chime on");
  });
  let last = "";
  watch(store, (s) => s, (state) => {
    if (state.screen !== "board" || !state.me) return; // signed in: me is known
    const { preparing, ready } = columns(state.numbers, state.now, state.me.settings);
    const key = JSON.stringify([preparing, ready]);
    if (key === last) return; // the clock ticks every second; redraw only on a change
    last = key;
    /** @param {import("./numbers.js").ShownNumber} shown */
    const item = ({ number, fresh }) => el("li", { class: fresh ? "number fresh" : "number", text: number });
    byId("preparing").replaceChildren(...preparing.map(item));
    byId("ready").replaceChildren(...ready.map(item));
  });
}
