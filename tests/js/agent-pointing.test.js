// The agent's side of pointing and the stock left on the menu.
import assert from "node:assert/strict";
import { test } from "node:test";

import { pointedWords, stockWords } from "../../static/agent/pointing.js";

test("a tracked item says how many are left; untracked and sold-out items say nothing", () => {
  assert.equal(stockWords({ stock_left: 3 }), "3 left");
  assert.equal(stockWords({ stock_left: 0, sold_out: true }), "");
  assert.equal(stockWords({ stock_left: null }), "");
  assert.equal(stockWords({}), "");
});

test("the customer's pointing is said with the item's name", () => {
  assert.equal(pointedWords({ itemId: "11", name: "Classic burger" }), "The customer is looking at Classic burger.");
  assert.equal(pointedWords(null), "");
});
