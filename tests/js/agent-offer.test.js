// The incoming card's offer: time left on the agent's clock, the customer's language,
// why the server set the agent on break, and why a card left.
import assert from "node:assert/strict";
import { test } from "node:test";

import { lapsedOnArrival, offerLeftWords, offerSeconds, secondsLeft, statusNotice } from "../../static/agent/offer.js";
import { goneReason, languageOf } from "../../static/agent/words.js";

const offer = (overrides = {}) => ({
  created_at: "2026-11-22T19:02:24.000000Z",
  waiting_seconds: 5,
  offer_expires_at: "2026-11-22T19:02:44.000000Z",
  customer_locale: "es-MX",
  ...overrides,
});

test("the time left is the server's expiry less the server's now when it spoke, whatever this clock says", () => {
  assert.equal(offerSeconds(offer()), 15); // 20 s after creation, 5 s of which already waited
  const receivedAt = 1_000_000; // this clock: any value at all
  assert.equal(secondsLeft(offer(), receivedAt, receivedAt), 15);
  assert.equal(secondsLeft(offer(), receivedAt, receivedAt + 4_200), 10); // counts down, rounded down
  assert.equal(secondsLeft(offer(), receivedAt, receivedAt + 13_999), 1);
  assert.equal(secondsLeft(offer(), receivedAt, receivedAt + 14_001), 0); // lapsed
  assert.equal(secondsLeft(offer({ created_at: "2026-11-22T19:02:23.600000Z" }), receivedAt, receivedAt), 15); // 15.4 s
  assert.equal(secondsLeft(offer(), receivedAt, receivedAt + 60_000), 0); // never below zero
});

test("an offer without an expiry has no countdown; one lapsed on arrival is known", () => {
  assert.equal(offerSeconds(offer({ offer_expires_at: null })), null);
  assert.equal(secondsLeft(offer({ offer_expires_at: undefined }), 0, 5_000), null);
  assert.equal(offerSeconds(offer({ offer_expires_at: "not a time" })), null);
  assert.equal(lapsedOnArrival(offer()), false);
  assert.equal(lapsedOnArrival(offer({ waiting_seconds: 20 })), true);
  assert.equal(lapsedOnArrival(offer({ waiting_seconds: 19, created_at: "2026-11-22T19:02:24.500000Z" })), true); // 0.5 s: gone before drawn
  assert.equal(lapsedOnArrival(offer({ waiting_seconds: 19 })), false); // 1 s left
  assert.equal(lapsedOnArrival(offer({ offer_expires_at: null })), false);
});

test("the countdown and the language in words", () => {
  assert.equal(offerLeftWords(12), "12 s to answer");
  assert.equal(offerLeftWords(0), "Offer lapsed");
  assert.equal(offerLeftWords(null), "");
  // One wording of the customer's language on the card and in the session header.
  assert.equal(languageOf("es-MX"), "Spanish (Mexico)");
  assert.equal(languageOf("es-ES"), "Spanish (Spain)");
  assert.equal(languageOf("en"), "English");
  assert.equal(languageOf("nl-BE"), "Dutch (Belgium)");
  assert.equal(languageOf("not a tag"), "not a tag"); // shown as the kiosk sent it
  assert.equal(languageOf(""), "");
  assert.equal(languageOf(null), "");
});

test("the server's reason for a status is said until the agent is available or busy again", () => {
  const message = "You missed 2 customers. Set yourself available when you are back.";
  const onBreak = { agent_status: "break", status_reason: "missed_offers", status_message: message };
  assert.equal(statusNotice(onBreak), message);
  assert.equal(statusNotice({ ...onBreak, status_message: "" }), "You missed customers. Set yourself available when you are back.");
  assert.match(statusNotice({ agent_status: "offline", status_reason: "gone", status_message: "" }), /set offline/);
  assert.equal(statusNotice({ ...onBreak, agent_status: "available" }), "");
  assert.equal(statusNotice({ agent_status: "break", status_reason: "", status_message: "" }), ""); // the agent's own break
  assert.equal(statusNotice(null), "");
});

test("why a card left: taken, lapsed, withdrawn, or nothing to say", () => {
  assert.equal(goneReason("claimed"), "taken by another agent");
  assert.equal(goneReason("lapsed"), "the offer lapsed and went to the next agent");
  assert.equal(goneReason("offer_expired"), "the offer lapsed and went to the next agent");
  assert.equal(goneReason("kiosk_cancelled"), "withdrawn by the kiosk");
  assert.equal(goneReason("withdrawn"), "withdrawn by the kiosk");
  assert.equal(goneReason("accepted_elsewhere"), "");
  assert.equal(goneReason("agent_unavailable"), "");
});
