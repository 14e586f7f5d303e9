// The dashboard's large status line: each status in a word and what it means for customers.
import assert from "node:assert/strict";
import { test } from "node:test";

import { statusBanner } from "../../static/agent/words.js";

test("each status has a headline and says whether customers are offered", () => {
  assert.deepEqual(statusBanner("available"), {
    title: "Available",
    detail: "Customers are offered to you as they arrive.",
  });
  assert.equal(statusBanner("busy").title, "Busy");
  assert.equal(statusBanner("break").title, "On break");
  assert.match(statusBanner("break").detail, /No customers are offered to you/);
  assert.equal(statusBanner("offline").title, "Offline");
  assert.match(statusBanner("offline").detail, /Set yourself available/);
});

test("an unknown status is shown as it is, without a sentence", () => {
  assert.deepEqual(statusBanner("lunch"), { title: "lunch", detail: "" });
});

test("with several seats, busy says every seat is taken and available how many are", () => {
  assert.equal(statusBanner("busy", { capacity: 1, sessions_held: 1 }).detail, "You are serving a customer; the next is offered when you finish.");
  const full = statusBanner("busy", { capacity: 3, sessions_held: 3 });
  assert.equal(full.title, "Busy");
  assert.equal(full.detail, "All 3 seats are taken: the next customer is offered when one frees.");
  assert.doesNotMatch(full.detail, /when you finish/);
  const room = statusBanner("available", { capacity: 3, sessions_held: 2 });
  assert.equal(room.title, "Available");
  assert.equal(room.detail, "2 of 3 seats taken. Customers are offered to you as they arrive.");
  assert.equal(statusBanner("available", { capacity: 3, sessions_held: 0 }).detail, "Customers are offered to you as they arrive.");
  assert.match(statusBanner("break", { capacity: 3, sessions_held: 2 }).detail, /No customers are offered to you/);
});
