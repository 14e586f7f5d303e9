// The thank-you screen's list of what was bought, by keypad. A long order's lines scroll inside
// the screen, so the list takes the focus like a control (in the tab order and on the arrows'
// way). In accessible mode, while it has the focus, up and down read it line by line (each line
// scrolled into sight and spoken: "Line 3 of 12: ..."), PageDown and PageUp go a screenful,
// Home and End to the first and last; up on the first line and down on the last go on to the
// previous and next control, as left, right and Tab do from any line, so the list holds nobody.
// Out of the mode the browser scrolls a focused list with the same keys. The line being read is
// the list's `data-current` (it outlives a redraw of the lines, and the focus stays on the list).
import { watch } from "../common/store.js";
import { byId } from "../common/ui.js";
import { thanksLineWords } from "./spoken.js";

/** @typedef {import("./state.js").KioskState} KioskState */

/**
 * The line a key moves to in a list of `count` lines read from line `current` (0-based), with
 * `perPage` lines in sight: a line's index, "before" or "after" to leave the list that way, or
 * null for a key the list does not take. Pure (tests/js/kiosk-access.test.js).
 * @param {string} key @param {number} current @param {number} count @param {number} perPage
 * @returns {number | "before" | "after" | null}
 */
export function lineStep(key, current, count, perPage) {
  if (count <= 0) return null;
  const at = Math.max(0, Math.min(current, count - 1));
  const page = Math.max(1, perPage);
  switch (key) {
    case "ArrowDown":
      return at + 1 < count ? at + 1 : "after";
    case "ArrowUp":
      return at > 0 ? at - 1 : "before";
    case "PageDown":
      return Math.min(count - 1, at + page);
    case "PageUp":
      return Math.max(0, at - page);
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return null;
  }
}

/** The line being read in `list` (0 before any), within its lines. @param {HTMLElement} list */
export function currentLine(list) {
  const count = list.children.length;
  const at = Number(list.dataset.current || 0);
  return count ? Math.max(0, Math.min(Number.isFinite(at) ? at : 0, count - 1)) : 0;
}

/**
 * @param {object} deps
 * @param {import("../common/store.js").Store<KioskState>} deps.store
 * @param {(text: string, how?: {interrupt?: boolean}) => void} deps.speak accessible mode's voice (speech.js)
 */
export function createThanksLines({ store, speak }) {
  const list = byId("thanks-lines");

  /** The line being read marked (after a move or a redraw of the lines). */
  function mark() {
    const at = currentLine(list);
    [...list.children].forEach((line, index) => {
      line.classList.toggle("reading", index === at && list.dataset.current !== undefined);
      if (index === at && list.dataset.current !== undefined) line.setAttribute("aria-current", "true");
      else line.removeAttribute("aria-current");
    });
  }
  new MutationObserver(mark).observe(list, { childList: true });
  // A new customer's thank-you starts from the first line, scrolled to the top.
  watch(store, (s) => (s.thanks ? s.thanks.sessionId : null), () => {
    delete list.dataset.current;
    list.scrollTop = 0;
    mark();
  });
  // The focus on the list reads its current line (speech.js says it with the list's name).
  list.addEventListener("focus", () => {
    list.dataset.current = String(currentLine(list));
    mark();
  });

  /** How many lines are in sight at once: the list's own height, or the window's where the list does not scroll. */
  function perPage() {
    const line = /** @type {HTMLElement | undefined} */ (list.children[currentLine(list)]);
    const height = line ? line.getBoundingClientRect().height : 0;
    const shown = Math.min(list.clientHeight, window.innerHeight);
    return height > 0 ? Math.floor(shown / height) : 1;
  }

  /**
   * A key while the list has the focus in accessible mode: true when it moved the line read
   * (the key is the list's), false when the keypad's own move follows (leaving the list).
   * @param {KeyboardEvent} event @param {HTMLElement | null} target
   */
  function key(event, target) {
    if (target !== list || event.shiftKey) return false;
    const step = lineStep(event.key, currentLine(list), list.children.length, perPage());
    if (typeof step !== "number") return false;
    list.dataset.current = String(step);
    mark();
    list.children[step].scrollIntoView({ block: "nearest" });
    speak(thanksLineWords(store.get(), step), { interrupt: true });
    return true;
  }

  return { key };
}
