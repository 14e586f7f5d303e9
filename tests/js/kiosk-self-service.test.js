// Ordering alone (static/kiosk/self-service.js): when it is offered, the cart's request lines,
// the options of one item, and the refusals in words.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./support/catalogues.js"; // the kiosk's words, from the .po files

import {
  aloneRefusal,
  choiceProblem,
  linesOf,
  offersSelfService,
  toggleOption,
  withItem,
  withQuantity,
} from "../../static/kiosk/self-service.js";

const NOW = Date.parse("2026-03-01T12:02:00Z");
const pending = (queue, createdAt = "2026-03-01T12:00:30Z") => ({ status: "pending", created_at: createdAt, queue });

test("offered with nobody available, or past the threshold by estimate or by the wait", () => {
  const queue = { position: 1, agents_available: 2, estimated_wait_seconds: 30, self_service_after_seconds: 120 };
  assert.equal(offersSelfService(pending(queue), NOW), false); // waited 90 s, estimate 30 s
  assert.equal(offersSelfService(pending({ ...queue, agents_available: 0 }), NOW), true);
  assert.equal(offersSelfService(pending({ ...queue, estimated_wait_seconds: 120 }), NOW), true);
  assert.equal(offersSelfService(pending(queue, "2026-03-01T12:00:00Z"), NOW), true); // waited 120 s
  assert.equal(offersSelfService(pending({ ...queue, estimated_wait_seconds: null }), NOW), false);
  assert.equal(offersSelfService({ status: "active", queue: null }, NOW), false);
  assert.equal(offersSelfService(pending(null), NOW), false); // before the server said the place
  assert.equal(offersSelfService(null, NOW), false);
});

test("the same choice adds to its line; quantities change and a line at 0 goes", () => {
  let lines = withItem([], "1", ["7"]);
  lines = withItem(lines, "1", ["7"]);
  lines = withItem(lines, "1", ["8"]);
  lines = withItem(lines, "2", []);
  assert.deepEqual(
    lines.map((line) => [line.menu_item_id, line.quantity, line.modifier_option_ids]),
    [["1", 2, ["7"]], ["1", 1, ["8"]], ["2", 1, []]],
  );
  assert.deepEqual(withQuantity(lines, 2, 1)[2].quantity, 2);
  assert.equal(withQuantity(lines, 1, -1).length, 2);
  assert.equal(withQuantity([{ ...lines[0], quantity: 99 }], 0, 1)[0].quantity, 99);
});

test("request lines are read back from the kiosk's order answer", () => {
  const order = {
    lines: [
      { menu_item_id: "1", quantity: 2, modifier_option_ids: ["7"], notes: "no salt" },
      { menu_item_id: null, quantity: 1 }, // an item since deleted: not resendable
    ],
  };
  assert.deepEqual(linesOf(order), [{ menu_item_id: "1", quantity: 2, modifier_option_ids: ["7"], notes: "no salt" }]);
  assert.deepEqual(linesOf(null), []);
});

const burger = {
  id: "1",
  name: "Burger",
  price_cents: 1000,
  modifier_groups: [
    { id: "g1", name: "Cooking", required: true, min: 1, max: 1, options: [{ id: "7", name: "Medium", price_cents: 0 }, { id: "8", name: "Well", price_cents: 0 }] },
    { id: "g2", name: "Extras", required: false, min: 0, max: 2, options: ["a", "b", "c"].map((id) => ({ id, name: id, price_cents: 50 })) },
  ],
};

test("a one-choice group swaps, others toggle; the rules are said in the customer's language", () => {
  assert.deepEqual(toggleOption(burger, ["7"], "8"), ["8"]);
  assert.deepEqual(toggleOption(burger, ["8", "a"], "b"), ["8", "a", "b"]);
  assert.deepEqual(toggleOption(burger, ["8", "a"], "a"), ["8"]);
  assert.deepEqual(toggleOption(burger, ["8"], "unknown"), ["8"]);
  assert.equal(choiceProblem(burger, [], "en-US"), "Cooking: choose at least 1.");
  assert.equal(choiceProblem(burger, [], "es-ES"), "Cooking: elige al menos 1.");
  assert.equal(choiceProblem(burger, ["7", "a", "b", "c"], "en-US"), "Extras: choose at most 2.");
  assert.equal(choiceProblem(burger, ["7", "a"], "en-US"), "");
});

test("refusals in words", () => {
  assert.equal(aloneRefusal({ code: "SESSION_ALREADY_ACCEPTED", status: 409 }, "en-US"), "A member of our team has joined you and now takes your order.");
  assert.equal(
    aloneRefusal({ code: "VALIDATION_ERROR", status: 422, details: { lines: { 0: ["Fries is sold out."] } } }, "en-US"),
    "This could not be added: Fries is sold out.",
  );
  assert.equal(aloneRefusal({ code: "NETWORK", status: 0 }, "de-DE"), "Unser Dienst ist gerade nicht erreichbar. Bitte versuchen Sie es gleich noch einmal.");
  assert.match(aloneRefusal({ code: "PROCESSOR_ACCOUNT_NOT_READY", status: 409 }, "fr-FR"), /paiement par carte/);
  // The card reader refused the payment: nothing started, Pay tries again (not the server's English).
  const offline = { code: "READER_OFFLINE", status: 409, message: "The card reader is offline: check it is switched on and connected, then try again." };
  assert.equal(aloneRefusal(offline, "es-ES"), "El lector de tarjetas no está conectado ahora. Tu pedido se guarda: inténtalo de nuevo en un momento.");
  assert.match(aloneRefusal({ code: "READER_BUSY", status: 409, message: "busy" }, "en-US"), /^The card reader is busy with another payment\. .*try again/);
});
