// DOM helpers both browser apps use (the agent dashboard imports them, the kiosk app loads them
// from the API server's /static/common/ at start: see static/kiosk/vendor.js).
// $: the older, loosely typed lookup (any element kind); new UI code uses byId, which checks the
// element's kind, so the type checker knows an <input> has a value and a <dialog> a showModal.
/** @type {(selector: string, root?: ParentNode) => any} */
export const $ = (selector, root = document) => root.querySelector(selector);

/** @type {(selector: string, root?: ParentNode) => HTMLElement[]} */
export const $$ = (selector, root = document) => /** @type {HTMLElement[]} */ ([...root.querySelectorAll(selector)]);

/**
 * The element with this id, of this kind (HTMLElement unless said); a missing one is a bug in the
 * page, said at once rather than as a null later.
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

export { money } from "./format.js";

// Status messages go to a polite live region (#announcer), so screen readers hear them.
export function announce(text) {
  const region = $("#announcer");
  region.textContent = "";
  window.setTimeout(() => (region.textContent = text), 30);
}

export function showError(node, text) {
  node.textContent = text || "";
  node.hidden = !text;
}
