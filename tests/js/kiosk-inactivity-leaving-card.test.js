// The kiosk's rules that are not DOM: when the inactivity prompt may end a
// session, when leaving asks first, and each cause of a card not taken in its own words.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./support/catalogues.js"; // the kiosk's words, from the .po files
import { inactivityApplies, leavingAsks } from "../../static/kiosk/status.js";
import { cardRefusal } from "../../static/kiosk/words.js";

test("inactivity ends a session only while the customer waits, never while an agent serves", () => {
  assert.equal(inactivityApplies("pending"), true);
  for (const status of ["active", "payment", "completed", null, undefined]) assert.equal(inactivityApplies(status), false);
});

test("leaving asks first when the cart holds something", () => {
  assert.equal(leavingAsks({ lines: [{}] }), true);
  assert.equal(leavingAsks({ lines: [] }), false);
  assert.equal(leavingAsks(null), false);
});

test("an empty card number, a processing error and a decline are each said in their own words", () => {
  const empty = cardRefusal("incomplete", "");
  assert.deepEqual(empty, { state: "ready", words: "Enter the card number.", clear: false });
  assert.doesNotMatch(cardRefusal("incorrect_number", "Your card number is incorrect.").words, /declined/i);
  const fault = cardRefusal("processing_error", "An error occurred while processing your card. Try again in a little bit.");
  assert.equal(fault.state, "error");
  assert.match(fault.words, /could not be processed/);
  assert.match(fault.words, /not declined/);
  const declined = cardRefusal("card_declined", "Your card was declined.");
  assert.deepEqual(declined, { state: "declined", words: "Card declined, try another card.", clear: true });
  // The cause from the processor's decline_code, never its English sentence.
  const noFunds = cardRefusal("insufficient_funds", "Your card has insufficient funds.", "de-DE");
  assert.deepEqual(noFunds, { state: "declined", words: "Karte abgelehnt: die Karte ist nicht ausreichend gedeckt. Bitte versuchen Sie eine andere Karte.", clear: true });
});
