// DOM helpers both browser apps use (the agent dashboard imports them, the kiosk app loads them
// from the API server's /static/common/ at start: see static/kiosk/vendor.js).
export const $ = (selector, root = document) => root.querySelector(selector);

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

export function money(cents, currency = "USD") {
  try {
    return new Intl.NumberFormat(undefined, { style: "currency", currency }).format(cents / 100);
  } catch (unknownCurrency) {
    return (cents / 100).toFixed(2) + " " + currency;
  }
}

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
