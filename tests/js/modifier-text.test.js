// A line's modifiers name each group once.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./support/catalogues.js"; // the kiosk's words, from the .po files
import { cartView } from "../../static/kiosk/cart.js";
import { modifierText } from "../../static/common/modifier-text.js";

const modifiers = [
  { group: "Extras", value: "Cheese" },
  { group: "Bun", value: "Brioche" },
  { group: "Extras", value: "Bacon" },
];

test("each group is named once, its options after it, in the order the groups first come", () => {
  assert.equal(modifierText(modifiers), "Extras: Cheese, Bacon; Bun: Brioche");
  assert.equal(modifierText([{ group: "Extras", value: "Cheese" }, { group: "Extras", value: "Bacon" }]), "Extras: Cheese, Bacon");
  assert.equal(modifierText([]), "");
});

test("the kiosk's cart says them the same way", () => {
  const order = { currency: "USD", lines: [{ id: "1", name: "Burger", quantity: 1, unit_price_cents: 1000, modifiers }] };
  assert.equal(cartView(order, "en-US").lines[0].modifiers, "Extras: Cheese, Bacon; Bun: Brioche");
});
