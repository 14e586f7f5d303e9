// Accessible mode's state, keys and spoken words (static/kiosk/access.js, spoken.js): what a key
// does, what starts the mode, the voice's steps, the doubled times, and what each screen says in
// the customer's language from the store.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./support/catalogues.js"; // the kiosk's words, from the .po files

import { ACCESS_OFF, commandOf, contrastRatio, LEAST_REACH, reachFraction, readableBrand, startsAccessible, stepRate, stepVolume, timeScale } from "../../static/kiosk/access.js";
import { cartWords, itemWords, paymentWords, screenWords, sentences, thanksLineWords } from "../../static/kiosk/spoken.js";
import { INITIAL } from "../../static/kiosk/state.js";
import { lineStep } from "../../static/kiosk/thanks-lines.js";

const ORDER = {
  currency: "USD",
  lines: [
    { id: "1", name: "Burger", quantity: 1, unit_price_cents: 1000, modifiers: [{ group: "Cooking", value: "Well done" }] },
    { id: "2", name: "Fries", quantity: 2, unit_price_cents: 300, modifiers: [], customer_words: { name: "Frites", modifiers: [] } },
  ],
  subtotal_cents: 1600,
  tax_cents: 128,
  total_cents: 1728,
  updated_at: "2026-03-01T12:00:00Z",
};

test("any key starts the mode on the attract screen; elsewhere an arrow or Enter with nothing focused", () => {
  for (const key of ["Tab", "ArrowDown", "Enter", "5", "a"]) assert.equal(startsAccessible({ key }, { screen: "attract", focused: true }), true, key);
  assert.equal(startsAccessible({ key: "Shift" }, { screen: "attract", focused: false }), false);
  assert.equal(startsAccessible({ key: "ArrowDown" }, { screen: "session", focused: false }), true);
  assert.equal(startsAccessible({ key: "Enter" }, { screen: "waiting", focused: false }), true);
  assert.equal(startsAccessible({ key: "Enter" }, { screen: "session", focused: true }), false); // a seeing keyboard user on a control
  assert.equal(startsAccessible({ key: "Tab" }, { screen: "thanks", focused: false }), false);
  assert.equal(startsAccessible({ key: "Enter" }, { screen: "pairing", focused: false }), false);
});

test("the keys: arrows move, Enter chooses, Escape and Backspace go back, + and -, the command keys", () => {
  const outside = { typing: false };
  assert.equal(commandOf({ key: "ArrowDown" }, outside), "next");
  assert.equal(commandOf({ key: "ArrowRight" }, outside), "next");
  assert.equal(commandOf({ key: "ArrowUp" }, outside), "previous");
  assert.equal(commandOf({ key: "Enter" }, outside), "choose");
  assert.equal(commandOf({ key: "Escape" }, outside), "back");
  assert.equal(commandOf({ key: "Backspace" }, outside), "back");
  assert.equal(commandOf({ key: "+" }, outside), "more");
  assert.equal(commandOf({ key: "-" }, outside), "less");
  assert.deepEqual(
    ["5", "*", "4", "6", "7", "9", "0", "8", "2", "#"].map((key) => commandOf({ key }, outside)),
    ["repeat", "repeat", "slower", "faster", "quieter", "louder", "person", "large_text", "contrast", "leave"],
  );
  assert.equal(commandOf({ key: "Tab" }, outside), null); // the browser's own
  assert.equal(commandOf({ key: "x" }, outside), null);
});

test("in a text field the keys typed are the field's", () => {
  const typing = { typing: true };
  for (const key of ["5", "0", "#", "+", "-", "Backspace", "ArrowLeft", "ArrowRight"]) assert.equal(commandOf({ key }, typing), null, key);
  assert.equal(commandOf({ key: "ArrowDown" }, typing), "next"); // leaving the field
  assert.equal(commandOf({ key: "Escape" }, typing), "back");
  assert.equal(commandOf({ key: "Enter" }, typing), "choose");
});

test("the voice's rate and volume step within their bounds; the mode doubles every time", () => {
  let access = { ...ACCESS_OFF, on: true };
  access = stepRate(stepRate(access, 1), 1);
  assert.equal(access.rate, 1.5);
  for (let i = 0; i < 9; i += 1) access = stepRate(access, 1);
  assert.equal(access.rate, 1.8);
  for (let i = 0; i < 9; i += 1) access = stepRate(access, -1);
  assert.equal(access.rate, 0.6);
  assert.equal(stepVolume(access, 1).volume, 1);
  let quiet = access;
  for (let i = 0; i < 9; i += 1) quiet = stepVolume(quiet, -1);
  assert.equal(quiet.volume, 0.2);
  assert.equal(timeScale(access), 2);
  assert.equal(timeScale(ACCESS_OFF), 1);
});

test("a menu item with its price and allergens; the cart line by line with its total", () => {
  const item = { name: "Burger", price: "$10.00", allergens: "Contains: Gluten, Milk", soldOut: false };
  assert.equal(itemWords(item, "en-US"), "Burger, $10.00. Contains: Gluten, Milk.");
  assert.match(itemWords({ ...item, soldOut: true }, "en-US"), /Sold out/i);
  assert.equal(
    cartWords(ORDER, "en-US"),
    "Your order: 1 Burger, $10.00 (Cooking: Well done); 2 Frites, $6.00. Total $17.28.",
  );
  assert.equal(cartWords(null, "fr-FR"), "Votre commande est vide.");
  assert.match(cartWords(ORDER, "de-DE"), /^Ihre Bestellung: .* Gesamt 17,28/);
});

test("the thank-you list by keypad: up and down a line, a page, the ends, and out at either end", () => {
  assert.equal(lineStep("ArrowDown", 0, 12, 4), 1);
  assert.equal(lineStep("ArrowDown", 11, 12, 4), "after"); // the last line: on to the next control
  assert.equal(lineStep("ArrowUp", 3, 12, 4), 2);
  assert.equal(lineStep("ArrowUp", 0, 12, 4), "before");
  assert.equal(lineStep("PageDown", 2, 12, 4), 6);
  assert.equal(lineStep("PageDown", 10, 12, 4), 11); // a page past the end stops at the last line
  assert.equal(lineStep("PageUp", 2, 12, 4), 0);
  assert.equal(lineStep("PageDown", 0, 12, 0), 1); // at least a line
  assert.equal(lineStep("Home", 7, 12, 4), 0);
  assert.equal(lineStep("End", 0, 12, 4), 11);
  assert.equal(lineStep("ArrowDown", 40, 12, 4), "after"); // a line past a shorter redraw reads as the last
  assert.equal(lineStep("ArrowRight", 0, 12, 4), null); // left and right stay the keypad's: they leave the list
  assert.equal(lineStep("ArrowDown", 0, 0, 4), null);
  const state = { ...INITIAL, locale: "en-US", thanks: { sessionId: "s", orderNumber: "A1", totalCents: 1728, currency: "USD", demo: false, order: ORDER, receiptUrl: null } };
  assert.equal(thanksLineWords(state, 0), "Line 1 of 2: 1 Burger, $10.00 (Cooking: Well done).");
  assert.match(thanksLineWords({ ...state, locale: "es-ES" }, 1), /^Línea 2 de 2: 2 Frites, 6,00\sUS\$\.$/);
  assert.equal(thanksLineWords(state, 2), "");
});

test("each screen says itself in the customer's language", () => {
  const base = { ...INITIAL, access: { ...ACCESS_OFF, on: true }, profile: { business: { name: "Burger Barn" }, settings: {} } };
  assert.equal(screenWords({ ...base, screen: "attract" }), "Burger Barn. Press Enter to start your order. Press 0 at any time to call a person. To write to a person instead of talking on camera, press the down arrow, then Enter.");
  assert.match(screenWords({ ...base, screen: "attract", locale: "es-ES" }), /^Burger Barn\. Pulsa Intro para empezar tu pedido/);
  const waiting = { ...base, screen: "waiting", aloneOffered: true, status: { status: "pending", queue: { position: 1, estimated_wait_seconds: null, agents_available: 0 } } };
  assert.match(screenWords(waiting), /^Finding someone to help you…? .*order on your own while you wait/);
  const alone = { ...base, screen: "session", alone: { ...base.alone, on: true }, order: ORDER };
  assert.match(screenWords(alone), /^You are ordering on your own\. .*Your order: 1 Burger.*Total \$17\.28\. Arrows move through the menu/);
  const thanks = { ...base, screen: "thanks", locale: "fr-FR", thanks: { orderNumber: "A-042", totalCents: 1728, currency: "USD", demo: true, sessionId: "s", order: null, receiptUrl: null } };
  assert.match(screenWords(thanks), /^Merci.*A-042\. .*17,28/);
  assert.equal(screenWords({ ...base, screen: "ended", ended: { reason: "timed_out", title: "Time is up", message: "Come back soon" } }), "Time is up. Come back soon.");
});

test("the payment step: the amount, then the demo cards, the card fields, or the reader", () => {
  const payment = { amount_cents: 1728, currency: "USD", client_secret: "x", state: "ready", stateText: "", error: "", mode: "demo", mounted: true };
  const state = { ...INITIAL, locale: "en-US", payment, status: { status: "payment", payment: { method: "card", reader: null } } };
  assert.match(paymentWords(state), /^To pay: \$17\.28\. Demo payments: move to a demo card/);
  assert.match(paymentWords({ ...state, payment: { ...payment, mode: "live" } }), /Type your card number/);
  const reader = { label: "Counter", status: "online", action_status: "in_progress", failure_code: "" };
  const onReader = { ...state, payment: { ...payment, method: "card_present", reader }, status: { status: "payment", payment: { method: "card_present", reader } } };
  assert.match(paymentWords(onReader), /^To pay: \$17\.28\. Tap, insert or swipe your card on the reader: the card reader is beside the screen\./);
  assert.equal(paymentWords({ ...state, payment: null }), "");
});

test("sentences end each part once and leave the empty ones out", () => {
  assert.equal(sentences(["One", "", null, "Two.", "Three?"]), "One. Two. Three?");
});

test("the reach line: the part of the screen at or below 1,220 mm, from the kiosk's mount", () => {
  assert.equal(reachFraction({ height_mm: 1000, screen_height_mm: 440, reach_mm: 1220 }), 0.5);
  assert.equal(reachFraction({ height_mm: 900, screen_height_mm: 200, reach_mm: 1220 }), 1); // all of it
  assert.equal(reachFraction({ height_mm: 1300, screen_height_mm: 400, reach_mm: 1220 }), LEAST_REACH); // above it: the least kept
  assert.equal(reachFraction(undefined), 1);
  assert.equal(reachFraction({ height_mm: 900, screen_height_mm: 0, reach_mm: 1220 }), 1);
});

test("the business's colour keeps 4.5:1 with the kiosk's light background and white words", () => {
  assert.equal(contrastRatio("#000000", "#ffffff").toFixed(0), "21");
  assert.equal(readableBrand("#C2410C"), "#C2410C"); // readable: the owner's own
  for (const light of ["#FACC15", "#FFFFFF", "#7DD3FC", "#1F6FEB"]) {
    const drawn = readableBrand(light);
    assert.ok(contrastRatio(drawn, "#f9fafb") >= 4.5, `${light} drawn as ${drawn}`);
    assert.ok(contrastRatio(drawn, "#ffffff") >= 4.5);
  }
});
