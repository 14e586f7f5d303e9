// DOM helpers both browser apps' UI modules use (imported from here by both; the kiosk's code is
// loaded from the API server's /static/, see static/kiosk/main.js).
/** All elements matching a selector. @type {(selector: string, root?: ParentNode) => HTMLElement[]} */
export const $$ = (selector, root = document) => /** @type {HTMLElement[]} */ ([...root.querySelectorAll(selector)]);

/**
 * The element with this id, of this kind (HTMLElement unless said), so the type checker knows an
 * <input> has a value and a <dialog> a showModal; a missing one is a bug in the page, said at
 * once rather than as a null later.
 * @template {HTMLElement} E
 * @param {string} id
 * @param {{new (): E, prototype: E}} [kind]
 * @returns {E}
 */
export function byId(id, kind = /** @type {any} */ (HTMLElement)) {
  const node = document.getElementById(id);
  if (!(node instanceof kind)) throw new Error(`the page has no ${kind.name} #${id}`);
  return node;
}

/**
 * The element matching `selector` under `root`; a missing one is a bug in what drew `root`, said
 * at once rather than as a null later.
 * @param {ParentNode} root
 * @param {string} selector
 * @returns {HTMLElement}
 */
export function within(root, selector) {
  const node = root.querySelector(selector);
  if (!(node instanceof HTMLElement)) throw new Error(`no ${selector} where it was drawn`);
  return node;
}

/**
 * A new element: attributes (`text` is its text, `on…` a listener, false/null/undefined left
 * out) and children (null/undefined/false left out).
 * @param {string} tag
 * @param {Record<string, any>} [attributes]
 * @param {...(Node | string | null | undefined | false | Array<Node | string | null | undefined | false>)} children
 * @returns {HTMLElement}
 */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

/**
 * Runs `draw`, which builds `container`'s children anew, and gives the focus back to the new
 * element standing where the focused one stood (`selectorOf(focused)`: a selector inside
 * `container`, or null). A redraw would otherwise drop a keyboard user's place; a field being
 * typed in keeps its text and caret.
 * @param {HTMLElement} container @param {(focused: HTMLElement) => string | null} selectorOf @param {() => void} draw
 */
export function redrawKeepingFocus(container, selectorOf, draw) {
  const focused = document.activeElement;
  const selector = focused instanceof HTMLElement && container.contains(focused) ? selectorOf(focused) : null;
  draw();
  const again = selector ? container.querySelector(selector) : null;
  if (!(again instanceof HTMLElement) || again === focused) return;
  // The text being typed goes over only to a field drawn with the same starting text (a line
  // removed above shifts the others: its neighbour's field must not take it).
  if (focused instanceof HTMLInputElement && again instanceof HTMLInputElement && again.defaultValue === focused.defaultValue) {
    again.value = focused.value;
    again.focus();
    again.setSelectionRange(focused.selectionStart, focused.selectionEnd);
    return;
  }
  again.focus();
}

export { money } from "./format.js";

let announcing = 0;

/** Status messages go to a polite live region (#announcer), so screen readers hear them. @param {string} text */
export function announce(text) {
  const region = byId("announcer");
  region.textContent = "";
  window.clearTimeout(announcing);
  announcing = window.setTimeout(() => (region.textContent = text), 30);
}

/** Empty the live region (a new customer must not find the last one's message in it). */
export function clearAnnouncer() {
  window.clearTimeout(announcing);
  byId("announcer").textContent = "";
}

/** @param {HTMLElement} node @param {string | null | undefined} text */
export function showError(node, text) {
  node.textContent = text || "";
  node.hidden = !text;
}
