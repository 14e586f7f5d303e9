// The item the agent shows the customer (MenuItemShown): the kiosk's own menu item, in the
// customer's language, with its options; nothing while the menu does not hold it.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./support/catalogues.js"; // the kiosk's words, from the .po files
import { shownItemView } from "../../static/kiosk/shown-item-view.js";

const menu = {
  categories: [
    {
      id: "1",
      name: "Hamburguesas",
      sort_order: 0,
      menu_items: [
        {
          id: "11",
          name: "Hamburguesa clásica",
          description: "Carne de ternera",
          price_cents: 899,
          photo_url: null,
          sold_out: false,
          allergens: ["gluten", "milk"],
          dietary: [],
          modifier_groups: [{ id: "7", name: "Extras", options: [{ id: "21", name: "Queso", price_cents: 100 }, { id: "22", name: "Cebolla", price_cents: 0 }] }],
        },
      ],
    },
  ],
};

test("the shown item carries its words, price, allergens and options in the customer's language", () => {
  const view = shownItemView(menu, "11", "es-ES", "EUR");
  assert.equal(view.name, "Hamburguesa clásica");
  assert.equal(view.description, "Carne de ternera");
  assert.match(view.price, /8,99/);
  assert.match(view.allergens, /^Contiene: /);
  assert.equal(view.photoUrl, null);
  assert.deepEqual(view.groups.map((g) => g.name), ["Extras"]);
  assert.equal(view.groups[0].options.length, 2);
  assert.match(view.groups[0].options[0], /^Queso \(\+1,00/);
  assert.equal(view.groups[0].options[1], "Cebolla");
});

test("nothing is shown for an item the menu does not hold, or before the menu is read", () => {
  assert.equal(shownItemView(menu, "99", "es-ES", null), null);
  assert.equal(shownItemView(null, "11", "es-ES", null), null);
  assert.equal(shownItemView(menu, null, "es-ES", null), null);
});
