import assert from "node:assert/strict";
import { test } from "node:test";

import { searchMenu } from "../../static/agent/menu-search.js";

const menu = [
  { name: "Burgers", menu_items: [{ name: "Classic burger", description: "Beef" }, { name: "Veggie", description: "Crème fraîche" }] },
  { name: "Sides", menu_items: [{ name: "Fries" }] },
];

test("the search keeps matching items by name or description, ignoring case and accents", () => {
  assert.deepEqual(searchMenu(menu, "  ").length, 2);
  assert.deepEqual(searchMenu(menu, "BURG").map((c) => c.menu_items.map((i) => i.name)), [["Classic burger"]]);
  assert.deepEqual(searchMenu(menu, "creme").map((c) => c.menu_items.map((i) => i.name)), [["Veggie"]]);
  assert.deepEqual(searchMenu(menu, "pizza"), []);
  assert.deepEqual(searchMenu(null, "x"), []);
});
