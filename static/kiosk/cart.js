// The live cart: exactly what the server says the order is (OrderUpdated, or GET .../order after
// a reconnect): lines with their modifiers and notes, subtotal, tax and total.
import { $, el, money } from "./ui.js";

export function renderCart(order) {
  const lines = (order && order.lines) || [];
  const currency = (order && order.currency) || "USD";
  $("#cart-lines").replaceChildren(
    ...lines.map((line) =>
      el(
        "li",
        { class: "line", "data-line-id": line.id },
        el("span", { class: "quantity", text: `${line.quantity} ×` }),
        el("span", { class: "name", text: line.name }),
        el("span", { class: "price", text: money(line.unit_price_cents * line.quantity, currency) }),
        line.modifiers.length
          ? el("span", { class: "modifiers", text: line.modifiers.map((m) => `${m.group}: ${m.value}`).join(", ") })
          : null,
        line.notes ? el("span", { class: "notes", text: line.notes }) : null,
      ),
    ),
  );
  $("#cart-empty").hidden = lines.length > 0;
  const amount = (cents) => (lines.length ? money(cents, currency) : "–");
  $("#cart-subtotal").textContent = amount(order ? order.subtotal_cents : 0);
  $("#cart-tax").textContent = amount(order ? order.tax_cents : 0);
  $("#cart-total").textContent = amount(order ? order.total_cents : 0);
  $("#cart-lines").dataset.updatedAt = (order && order.updated_at) || "";
}
