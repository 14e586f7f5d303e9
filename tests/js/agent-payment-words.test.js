// The agent's side of a card not taken: a failed card is said by its cause, not "declined" for all.
import assert from "node:assert/strict";
import { test } from "node:test";

import { paymentView } from "../../static/agent/cart-state.js";
import { failureView, sendRefusal } from "../../static/agent/payment-words.js";

const failedOrder = { status: "failed", lines: [], subtotal_cents: 0, tax_cents: 0, total_cents: 0 };

test("a processing error is a fault to retry, not a decline", () => {
  const view = paymentView("payment", failedOrder, { status: "failed", failure_code: "processing_error", failure_message: "An error occurred while processing your card." });
  assert.equal(view.state, "error");
  assert.match(view.text, /could not be processed/);
  assert.doesNotMatch(view.text, /declined\./i);
  assert.match(view.text, /try the same card again/);
});

test("a decline says its cause", () => {
  assert.equal(failureView({ status: "failed", failure_code: "insufficient_funds" }).text.split(".")[0], "Card declined: the card has insufficient funds");
  assert.match(failureView({ status: "failed", failure_code: "expired_card" }).text, /^Card declined: the card has expired\./);
  assert.match(failureView({ status: "failed", failure_code: "incomplete_number" }).text, /card details were incomplete/);
  assert.match(failureView({ status: "failed", failure_code: "generic_decline" }).text, /without saying why/);
});

test("an unknown cause gives the processor's words, a bare decline only the decline", () => {
  assert.match(failureView({ status: "failed", failure_code: "new_code", failure_message: "Try a chip card." }).text, /^Card declined \(the processor says: Try a chip card\)\./);
  assert.match(failureView({ status: "failed", failure_code: "", failure_message: "Your card was declined." }).text, /^Card declined\. The customer may try another card/);
  assert.match(failureView(null).text, /^Card declined\./);
});

test("outside payment, or while waiting, nothing of the cause is said", () => {
  assert.deepEqual(paymentView("active", failedOrder, { status: "failed", failure_code: "expired_card" }), { state: "none", text: "" });
  assert.equal(paymentView("payment", { ...failedOrder, status: "pending" }, null).state, "waiting");
});

test("on the kiosk's card reader: waiting for the card, then a decline with its cause and another card on the reader", () => {
  const reader = { label: "Till", status: "online", action_status: "in_progress" };
  const waiting = { status: "requires_payment_method", failure_code: "", failure_message: "", method: "card_present", reader };
  assert.deepEqual(paymentView("payment", { ...failedOrder, status: "pending" }, waiting), { state: "waiting", text: "Waiting for the card on the reader" });
  const declined = { ...waiting, status: "failed", failure_code: "insufficient_funds", failure_message: "Your card has insufficient funds." };
  assert.deepEqual(paymentView("payment", failedOrder, declined), {
    state: "declined",
    text: "Declined: the card has insufficient funds, the customer may try another card on the reader.",
  });
  assert.equal(
    paymentView("payment", failedOrder, { ...declined, failure_code: "generic_decline", failure_message: "Your card was declined." }).text,
    "Declined: the bank refused the card without saying why, the customer may try another card on the reader.",
  );
  assert.equal(
    paymentView("payment", failedOrder, { ...declined, failure_code: "", failure_message: "Your card was declined." }).text,
    "Declined: the bank refused the card without saying why, the customer may try another card on the reader.",
  );
  assert.equal(paymentView("payment", failedOrder, { ...declined, failure_code: "processing_error" }).state, "error");
  const offline = paymentView("payment", { ...failedOrder, status: "pending" }, { ...waiting, reader: { ...reader, status: "offline" } });
  assert.deepEqual(offline, { state: "waiting", text: "The card reader is offline: the customer cannot pay until it is back." });
  assert.match(paymentView("payment", failedOrder, { ...declined, reader: { ...reader, status: "offline" } }).text, /another card on the reader\. The card reader is offline/);
});

test("a card payment keeps its words", () => {
  const card = { status: "requires_payment_method", failure_code: "", failure_message: "", method: "card", reader: null };
  assert.equal(paymentView("payment", { ...failedOrder, status: "pending" }, card).text, "Waiting for the customer's card…");
  assert.match(paymentView("payment", failedOrder, { ...card, status: "failed", failure_code: "expired_card" }).text, /^Card declined: the card has expired\./);
});

test("a send to payment the card reader refused says so and that sending again is the retry", () => {
  const offline = sendRefusal({ code: "READER_OFFLINE", message: "The card reader is offline: check it is switched on and connected, then try again." });
  assert.match(offline, /^The card reader is offline: .*send to payment again\. The order is kept\.$/);
  assert.match(sendRefusal({ code: "READER_BUSY", message: "busy" }), /^The card reader is busy with another payment: send to payment again in a moment\./);
  assert.equal(sendRefusal({ code: "ORDER_EMPTY", message: "The cart is empty." }), "Payment could not start: The cart is empty.");
});
