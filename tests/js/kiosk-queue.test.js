// The kiosk's place in line in words, while it waits.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./support/catalogues.js"; // the kiosk's words, from the .po files
import { aboutWait, queueWords } from "../../static/kiosk/words.js";

test("the wait in words, rounded to the minute", () => {
  assert.equal(aboutWait(0), "less than a minute");
  assert.equal(aboutWait(44), "less than a minute");
  assert.equal(aboutWait(45), "about 1 minute");
  assert.equal(aboutWait(75), "about 1 minute");
  assert.equal(aboutWait(90), "about 2 minutes");
  assert.equal(aboutWait(600), "about 10 minutes");
});

test("the place, the wait and who is free", () => {
  assert.deepEqual(queueWords({ position: 2, estimated_wait_seconds: 75, agents_available: 1 }), {
    place: "You are number 2 · about 1 minute",
    agents: "1 team member is available.",
  });
  assert.deepEqual(queueWords({ position: 1, estimated_wait_seconds: 20, agents_available: 3 }), {
    place: "You are next · less than a minute",
    agents: "3 team members are available.",
  });
});

test("no estimate and nobody free are said honestly; no queue says nothing", () => {
  assert.deepEqual(queueWords({ position: 3, estimated_wait_seconds: null, agents_available: 0 }), {
    place: "You are number 3 · we cannot tell the wait yet",
    agents: "No one from our team is free right now. Please stay: you keep your place.",
  });
  assert.deepEqual(queueWords(null), { place: "", agents: "" });
  assert.deepEqual(queueWords(undefined), { place: "", agents: "" });
});
