// One cart line as the live cart and the thank-you screen both draw it (cart.js makes its words).
import { el } from "../common/ui.js";

/**
 * @param {import("./cart.js").CartLine} line
 * @param {...(Node | null)} extra what the screen adds after the line's words (e.g. its buttons)
 */
export const cartLineElement = (line, ...extra) =>
  el(
    "li",
    { class: "line", "data-line-id": line.id },
    el("span", { class: "quantity", text: line.quantity }),
    el("span", { class: "name", text: line.name }),
    el("span", { class: "price", text: line.price }),
    line.modifiers ? el("span", { class: "modifiers", text: line.modifiers }) : null,
    line.notes ? el("span", { class: "notes", text: line.notes }) : null,
    ...extra,
  );
