// What both apps call paid: the order body's `paid`, the server's one rule (apps/orders/models.py,
// tested for every status in tests/orders/test_paid_rule.py); the apps keep no list of their own.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./support/catalogues.js"; // the kiosk's words, from the .po files
import { cartRefusal, endCheck, endWords, finishText, revertsToSaved } from "../../static/agent/cart-state.js";
import { paidOrderNumber } from "../../static/kiosk/status.js";

test("the kiosk thanks with a number only for a paid order: a draft ended as completed is no payment", () => {
  assert.equal(paidOrderNumber({ status: "draft", paid: false, order_number: "3" }), null);
  assert.equal(paidOrderNumber({ status: "awaiting_payment", paid: false, order_number: "3" }), null);
  assert.equal(paidOrderNumber({ status: "refunded", paid: false, order_number: "3" }), null);
  assert.equal(paidOrderNumber({ status: "confirmed", paid: true, order_number: "3" }), "3");
  // The flag decides, not a status the app would have to know.
  assert.equal(paidOrderNumber({ status: "some_new_status", paid: true, order_number: "3" }), "3");
  assert.equal(paidOrderNumber({ status: "confirmed", order_number: "3" }), null); // no flag: not said paid
});

test("the agent's result says Paid only for a paid order", () => {
  const ended = { status: "completed", duration_seconds: 65 };
  const order = { status: "awaiting_payment", paid: false, order_number: "3", total_cents: 380, currency: "USD", lines: [], subtotal_cents: 0, tax_cents: 0 };
  assert.equal(finishText(ended, order), "Session completed after 1:05.");
  assert.equal(finishText(ended, { ...order, status: "paid", paid: true }), "Paid: order 3, $3.80. Session completed after 1:05.");
});

test("ending: no reason is chosen for the agent; Completed with an unpaid cart asks first", () => {
  const line = { menu_item_id: "1", name: "Fries", quantity: 1, modifier_option_ids: [], modifiers: [], notes: "" };
  const draft = { status: "draft", paid: false, lines: [], subtotal_cents: 300, tax_cents: 0, total_cents: 300 };
  assert.equal(endCheck("", draft, [line]), "reason");
  assert.equal(endCheck("completed", draft, [line]), "unpaid");
  assert.equal(endCheck("completed", { ...draft, status: "paid", paid: true }, [line]), "");
  assert.equal(endCheck("completed", { ...draft, status: "refunded", paid: false }, [line]), "unpaid");
  assert.equal(endCheck("completed", null, []), ""); // nothing in the cart: nothing to lose
  assert.equal(endCheck("customer_abandoned", draft, [line]), "");
  assert.match(endWords("unpaid"), /not been paid/);
  assert.equal(endWords(""), "");
});

test("a refused cart save goes back to the saved cart and says so, but for lines to correct or a sign-in", () => {
  assert.deepEqual([0, 409, 500, 503].map((status) => revertsToSaved({ status })), [true, true, true, true]);
  assert.deepEqual([422, 401].map((status) => revertsToSaved({ status })), [false, false]);
  assert.equal(
    cartRefusal({ status: 0, message: "The service cannot be reached." }),
    "The change was not saved: The service cannot be reached. The cart shows what was last saved.",
  );
});
