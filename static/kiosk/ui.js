// DOM helpers (the shared static/common/ui.js) and the screens: exactly one screen shows at a
// time, and <body data-screen> says which (the tests and the stylesheet read it).
import { shared } from "./vendor.js";

export const { $, $$, announce, el, money, showError } = await shared("ui.js");
export const { logFailure } = await shared("report.js");

export function showScreen(name) {
  $$("section.screen").forEach((section) => {
    section.hidden = section.dataset.screen !== name;
  });
  document.body.dataset.screen = name;
}

export const currentScreen = () => document.body.dataset.screen;
