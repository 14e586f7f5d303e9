// The menu beside the agent (static/kiosk/menu.js): in order, in the customer's language, prices
// for the locale, allergens and dietary tags in words, sold out and photo-less items marked.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./support/catalogues.js"; // the kiosk's words, from the .po files
import { menuPrice, menuView } from "../../static/kiosk/menu.js";

const menu = {
  locale: "es",
  categories: [
    { id: "2", name: "Bebidas", sort_order: 1, menu_items: [{ id: "9", name: "Agua", price_cents: 150, photo_url: null, sold_out: true }] },
    { id: "3", name: "Vacía", sort_order: 2, menu_items: [] },
    {
      id: "1",
      name: "Hamburguesas",
      sort_order: 0,
      menu_items: [
        { id: "5", name: "Clásica", description: "Ternera", price_cents: 899, photo_url: "https://x/p.webp", allergens: ["gluten", "sesame"], dietary: ["halal"] },
      ],
    },
  ],
};

test("categories in order, empty ones left out; each item's words in the customer's language", () => {
  const view = menuView(menu, "es-ES", "EUR");
  assert.deepEqual(view.map((category) => category.name), ["Hamburguesas", "Bebidas"]);
  const [burger] = view[0].items;
  assert.equal(burger.price, "8,99\u00a0€");
  assert.equal(burger.allergens, "Contiene: Gluten, Sésamo");
  assert.deepEqual(burger.dietary, ["Halal"]);
  assert.equal(burger.photoUrl, "https://x/p.webp");
  const [water] = view[1].items;
  assert.deepEqual([water.soldOut, water.photoUrl, water.allergens], [true, null, ""]);
  assert.deepEqual(menuView(null, "en-US", null), []);
});

test("without a known currency a price is the amount alone, never a guessed symbol", () => {
  assert.equal(menuPrice(899, null, "en-US"), "8.99");
  assert.equal(menuPrice(899, null, "de-DE"), "8,99");
  assert.equal(menuPrice(899, "USD", "en-US"), "$8.99");
});
