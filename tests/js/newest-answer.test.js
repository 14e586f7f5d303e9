// Overlapping reads answer out of order: an older answer must not put an older state back
// (static/common/http.js newestAnswer; the agent's queue polls and GET /api/user use it).
import assert from "node:assert/strict";
import { test } from "node:test";

import { newestAnswer } from "../../static/common/http.js";

test("an answer asked before one already taken is refused", () => {
  const reads = newestAnswer();
  const first = reads.ask();
  const second = reads.ask();
  assert.equal(second(), true); // the later read answered first
  assert.equal(first(), false); // older: it would put the earlier state back
});

test("answers in order are all taken, and a read after them is new again", () => {
  const reads = newestAnswer();
  const first = reads.ask();
  const second = reads.ask();
  assert.equal(first(), true);
  assert.equal(second(), true);
  assert.equal(reads.ask()(), true);
});

test("each reader counts on its own", () => {
  const queue = newestAnswer();
  const user = newestAnswer();
  const older = user.ask();
  queue.ask();
  queue.ask()();
  assert.equal(older(), true);
});
