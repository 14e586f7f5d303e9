// Accessible mode by keypad: a key starts it (access.js startsAccessible), then the arrows move the
// focus over the screen's controls (Tab does too, natively), Enter chooses, Escape or Backspace
// goes back, + and - change a quantity, and the command keys repeat, set the voice, call a person
// and leave the mode. A list that reads line by line (thanks-lines.js) takes up, down, PageUp,
// PageDown, Home and End while it has the focus, and gives them back at its ends. The focus always rests on a control of the screen shown: after a screen
// change or a redraw that took its control away it moves to the screen's first one. What each
// command does to the session is app.js's (`act`).
import { watch } from "../common/store.js";
import { commandOf, startsAccessible } from "./access.js";

/** @typedef {import("./state.js").KioskState} KioskState @typedef {import("./access.js").Command} Command */

const CONTROLS = 'button, input, select, textarea, a[href], [tabindex="0"]';

/** @param {Element | null} node */
const visible = (node) => node instanceof HTMLElement && node.getClientRects().length > 0 && !node.closest("[hidden]");

/** Where the focus may go now: the open dialog, else the screen shown and the access bar. */
function scope() {
  const dialog = document.querySelector("dialog[open]");
  if (dialog) return [dialog];
  return [document.querySelector("section.screen:not([hidden])"), document.getElementById("access-bar")].filter((node) => node !== null);
}

/** The controls the arrows move over, in the page's order. @returns {HTMLElement[]} */
export function controls() {
  return scope()
    .flatMap((root) => [.../** @type {Element} */ (root).querySelectorAll(CONTROLS)])
    .filter((node) => visible(node) && !(/** @type {HTMLButtonElement} */ (node).disabled))
    .map((node) => /** @type {HTMLElement} */ (node));
}

/** The first control a screen offers (its main action), else its first control. */
function firstControl() {
  const preferred = ["#payment button:not([hidden]), #payment input", "#kiosk-menu-categories .menu-item", "#order-alone", "#start", "#thanks-done", "#ended-done"];
  for (const selector of preferred) {
    const found = controls().find((node) => node.matches(selector));
    if (found) return found;
  }
  return controls()[0] || null;
}

/** @param {1 | -1} step */
function move(step) {
  const all = controls();
  if (!all.length) return;
  const active = document.activeElement;
  const index = all.indexOf(/** @type {HTMLElement} */ (active));
  // On no control but in the screen (the payment step's heading): on from where the focus is.
  const after = index < 0 && active instanceof HTMLElement && active !== document.body
    ? all.findIndex((node) => Boolean(active.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING))
    : -1;
  const from = after < 0 ? index : step > 0 ? after - 1 : after;
  const next = from < 0 && after < 0 ? (step > 0 ? 0 : all.length - 1) : (from + step + all.length) % all.length;
  all[next].focus();
}

const typingIn = (/** @type {Element | null} */ node) =>
  node instanceof HTMLTextAreaElement || (node instanceof HTMLInputElement && !["checkbox", "radio", "button", "submit"].includes(node.type));

/**
 * @param {object} deps
 * @param {import("../common/store.js").Store<KioskState>} deps.store
 * @param {(command: Command | "start" | "extend", target: HTMLElement | null) => boolean} deps.act does the command; false: the key stays the page's
 * @param {() => boolean} deps.warning a timeout's warning is up: any key answers it (app.js)
 * @param {{key: (event: KeyboardEvent, target: HTMLElement | null) => boolean}} deps.lines a list read line by line while it has the focus (thanks-lines.js): true when it took the key
 */
export function createKeypad({ store, act, warning, lines }) {
  document.addEventListener(
    "keydown",
    (event) => {
      if (event.ctrlKey || event.altKey || event.metaKey || event.isComposing) return;
      const { access, screen } = store.get();
      const focused = document.activeElement;
      if (warning()) {
        if (event.key === "Tab") return; // the dialog's own controls stay reachable
        event.preventDefault();
        return void act("extend", null);
      }
      if (!access.on) {
        const target = focused instanceof HTMLElement && focused !== document.body ? focused : null;
        if (!startsAccessible(event, { screen, focused: Boolean(target) && visible(target) })) return;
        event.preventDefault(); // the key that starts the mode does only that
        return void act("start", null);
      }
      const target = focused instanceof HTMLElement ? focused : null;
      if (lines.key(event, target)) return void event.preventDefault();
      const command = commandOf(event, { typing: typingIn(focused) });
      if (!command) return;
      if (command === "next" || command === "previous") {
        event.preventDefault();
        return move(command === "next" ? 1 : -1);
      }
      if (act(command, target)) event.preventDefault();
    },
    { capture: true },
  );

  // After each change the focus is still on a control of the screen shown (a redraw or a hidden
  // button must not leave it on nothing), and a new screen starts at its first control.
  let settling = 0;
  let fresh = false; // a new screen waits to be settled, whatever changes come before
  const settle = (/** @type {boolean} */ isNew) => {
    fresh = fresh || isNew;
    window.clearTimeout(settling);
    settling = window.setTimeout(() => {
      const wasNew = fresh;
      fresh = false;
      if (!store.get().access.on) return;
      const focused = document.activeElement;
      const inScope = scope().some((root) => root.contains(focused));
      if (wasNew || !visible(focused) || focused === document.body || !inScope) {
        // A payment step just shown: its heading, scrolled into sight, where its words start.
        const heading = document.getElementById("payment-title");
        const paying = wasNew && store.get().payment && visible(heading) ? heading : null;
        const first = paying || firstControl();
        if (first && first !== focused) first.focus({ preventScroll: Boolean(paying) });
        if (paying) paying.scrollIntoView({ block: "start" });
      }
    }, 0);
  };
  watch(store, (s) => (s.access.on ? `${s.screen}:${Boolean(s.payment)}:${s.alone.on}:${Boolean(s.menu.body)}` : null), (key) => key && settle(true));
  store.subscribe(() => settle(false));
  return { controls, firstControl };
}
