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
