// Draws accessible mode, large text and high contrast from the store: <html data-text>,
// <html data-contrast> and <body data-accessible> (kiosk.css reads them), the bar at the bottom
// edge with its toggles, and the warning before a finished screen goes back to the start.
import { watch } from "../common/store.js";
import { byId } from "../common/ui.js";
import { reachFraction } from "./access.js";
import { t } from "./messages.js";

/** @typedef {import("./state.js").KioskState} KioskState */

/** @param {import("../common/store.js").Store<KioskState>} store */
export function renderAccess(store) {
  watch(store, (s) => s.access, (access) => {
    document.documentElement.dataset.text = access.largeText ? "large" : "standard";
    document.documentElement.dataset.contrast = access.highContrast ? "high" : "standard";
    document.body.dataset.accessible = String(access.on);
    byId("access-toggle").setAttribute("aria-pressed", String(access.on));
    byId("text-toggle").setAttribute("aria-pressed", String(access.largeText));
    byId("contrast-toggle").setAttribute("aria-pressed", String(access.highContrast));
  });
  // The reach line from the kiosk's mount (kiosk.css's low layout keeps the controls below it).
  watch(store, (s) => reachFraction(s.profile && s.profile.mount), (reach) => document.documentElement.style.setProperty("--reach", String(reach)));
  // The mode's button on every customer screen; large text and contrast on the attract screen and in the mode.
  watch(store, (s) => `${s.screen}:${s.access.on}`, (_, { screen, access }) => {
    byId("access-bar").hidden = screen === "loading" || screen === "pairing";
    const display = screen === "attract" || access.on;
    byId("text-toggle").hidden = !display;
    byId("contrast-toggle").hidden = !display;
  });
  watch(store, (s) => s.returning, (returning, { locale }) => {
    byId("returning").hidden = !returning.open;
    byId("returning-count").textContent = returning.open ? t(locale, "returning.count", { seconds: returning.left }) : "";
    // The screens end above the warning while it shows (kiosk.css): it covers none of their controls.
    const top = returning.open ? byId("returning").getBoundingClientRect().top : window.innerHeight;
    document.documentElement.style.setProperty("--returning", `${Math.ceil(window.innerHeight - top)}px`);
  });
}
