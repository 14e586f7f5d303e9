// The kiosk app's logic that is not DOM: where a status leads, the cart as shown, the words.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./support/catalogues.js"; // the kiosk's words, from the .po files
import { cartView } from "../../static/kiosk/cart.js";
import { agentJustArrived, destinationOf, isOpen, paidOrderNumber, paymentWithdrawn } from "../../static/kiosk/status.js";
import { connectionLost, declined, ending, nextBackoff, pairingFormProblem, pairingRefusal, startRefusal, suggestedName, videoWords } from "../../static/kiosk/words.js";

test("each session status leads to its screen", () => {
  assert.equal(destinationOf("pending"), "waiting");
  assert.equal(destinationOf("active"), "session");
  assert.equal(destinationOf("payment"), "session");
  assert.equal(destinationOf("completed"), "completed");
  for (const status of ["cancelled", "timed_out", "refused", "failed"]) assert.equal(destinationOf(status), "ended");
  assert.deepEqual(["pending", "active", "payment", "completed", null].map(isOpen), [true, true, true, false, false]);
});

test("the agent is announced once, when the session leaves the queue; a withdrawn payment is seen", () => {
  assert.equal(agentJustArrived("pending", "active"), true);
  assert.equal(agentJustArrived(null, "payment"), true);
  assert.equal(agentJustArrived("active", "payment"), false);
  assert.equal(agentJustArrived("pending", "pending"), false);
  assert.equal(paymentWithdrawn("payment", "active"), true);
  assert.equal(paymentWithdrawn("active", "active"), false);
});

test("a completed session thanks with the number only of a real paid order", () => {
  assert.equal(paidOrderNumber({ status: "paid", paid: true, order_number: "A-12" }), "A-12");
  assert.equal(paidOrderNumber({ status: "failed", paid: false, order_number: "A-12" }), null);
  assert.equal(paidOrderNumber({ status: "paid", paid: true, order_number: null }), null);
  assert.equal(paidOrderNumber(null), null);
});

test("the cart shows the server's order: line prices, modifiers, notes and totals in its currency", () => {
  const order = {
    currency: "USD",
    lines: [
      { id: "l1", name: "Burger", quantity: 2, unit_price_cents: 1000, notes: "no onions", modifiers: [{ group: "Size", value: "Large" }] },
      { id: "l2", name: "Fries", quantity: 1, unit_price_cents: 300, modifiers: [] },
    ],
    subtotal_cents: 2300,
    tax_cents: 184,
    total_cents: 2484,
    updated_at: "2026-11-25T20:00:00Z",
  };
  const cart = cartView(order, "en-US");
  assert.equal(cart.empty, false);
  assert.deepEqual(cart.lines[0], { id: "l1", quantity: "2 ×", name: "Burger", price: "$20.00", modifiers: "Size: Large", notes: "no onions" });
  assert.deepEqual([cart.lines[1].modifiers, cart.lines[1].notes], ["", ""]);
  assert.deepEqual([cart.subtotal, cart.tax, cart.total, cart.updatedAt], ["$23.00", "$1.84", "$24.84", "2026-11-25T20:00:00Z"]);
});

test("a line is shown in the customer's words where the order gives them", () => {
  const line = { id: "l1", name: "Burger", quantity: 1, unit_price_cents: 899, modifiers: [{ group: "Extras", value: "Cheese" }] };
  const spanish = { name: "Hamburguesa", modifiers: [{ group: "Extras", value: "Queso" }] };
  const order = { lines: [{ ...line, customer_words: spanish }, { ...line, id: "l2", customer_words: null }], currency: "EUR", subtotal_cents: 1798, tax_cents: 0, total_cents: 1798 };
  const [translated, same] = cartView(order, "es-ES").lines;
  assert.deepEqual([translated.name, translated.modifiers], ["Hamburguesa", "Extras: Queso"]);
  assert.deepEqual([same.name, same.modifiers], ["Burger", "Extras: Cheese"]);
});

test("an empty cart shows dashes, not zero amounts", () => {
  for (const order of [null, { lines: [], currency: "EUR", subtotal_cents: 0, tax_cents: 0, total_cents: 0 }]) {
    const cart = cartView(order, "en-US");
    assert.deepEqual([cart.empty, cart.lines, cart.subtotal, cart.tax, cart.total], [true, [], "–", "–", "–"]);
  }
});

test("pairing: the form's problems and every refusal in words", () => {
  assert.equal(pairingFormProblem("12345", "Front"), "Enter the 6-digit pairing code.");
  assert.match(pairingFormProblem("123456", ""), /Give this kiosk a name/);
  assert.equal(pairingFormProblem("123456", "Front"), "");
  assert.match(pairingRefusal({ code: "PAIRING_CODE_EXPIRED" }), /expired/);
  assert.equal(pairingRefusal({ code: "VALIDATION_ERROR", details: { code: ["Bad."], device_name: ["Long."] }, message: "x" }), "Bad. Long.");
  assert.equal(pairingRefusal({ code: "RATE_LIMITED", status: 429, retryAfter: 40 }), "Too many pairing attempts. Wait 40 seconds, then try again.");
  assert.equal(pairingRefusal({ code: "HTTP_500", status: 500, message: "Boom." }), "Pairing failed: Boom.");
});

test("starting, endings, the card, the video and the network, in words", () => {
  assert.match(startRefusal({ code: "OWNER_SUSPENDED" }), /cannot take orders/);
  assert.equal(startRefusal({ code: "X", message: "No." }), "Sorry, we could not start: No.");
  assert.deepEqual(ending("timed_out").title, "Sorry, nobody could answer");
  assert.deepEqual(ending("something new"), ending("customer_abandoned"));
  assert.equal(declined("generic_decline"), "Card declined, try another card.");
  assert.equal(declined("insufficient_funds"), "Card declined: the card has insufficient funds. Please try another card.");
  assert.equal(videoWords("unavailable", { error: new Error("no camera") }), "Video unavailable: no camera. Your order carries on.");
  assert.equal(videoWords("reconnecting", {}, "es-ES"), "Reconectando el vídeo…");
  assert.equal(connectionLost(4), "Connection lost. Trying again in 4 s…");
  assert.equal(connectionLost(0), "Connection lost. Trying again now…");
  assert.equal(connectionLost(null), "Connection lost. Check the network, then try again.");
  assert.deepEqual([0, 2, 4, 8, 16, 30].map(nextBackoff), [2, 4, 8, 16, 30, 30]);
});

test("the pairing form suggests a name of this device's own, never the demo kiosk's", () => {
  assert.equal(suggestedName("3f9a2c1d-0000-4000-8000-000000000000"), "Kiosk 3F9A");
  assert.notEqual(suggestedName("0b7e0000-0000-4000-8000-000000000000"), suggestedName("3f9a2c1d-0000-4000-8000-000000000000"));
  assert.doesNotMatch(pairingFormProblem("123456", ""), /Front counter/);
});
