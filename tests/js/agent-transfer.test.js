// The agent's Transfer control: the choices, the request each makes, the words
// while waiting, after a lapse and on a refusal.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  cancelledWords,
  cancelRefusal,
  handedOverWords,
  lapsedWords,
  pendingFromServer,
  pendingLeft,
  transferBody,
  transferChoices,
  transferRefusal,
  waitingWords,
} from "../../static/agent/transfer-state.js";

const candidates = {
  agents: [
    { id: "12", name: "Bea", languages: ["es"] },
    { id: "13", name: "Cy", languages: [] },
  ],
  languages: ["es"],
};

test("the list names each free colleague, then a wave per language", () => {
  assert.deepEqual(transferChoices(candidates), [
    { value: "agent:12", label: "Bea (es)", group: "agent" },
    { value: "agent:13", label: "Cy", group: "agent" },
    { value: "language:es", label: "Any agent who speaks Spanish", group: "language" },
  ]);
  assert.deepEqual(transferChoices(null), []);
});

test("each choice makes its request; nothing chosen makes none", () => {
  assert.deepEqual(transferBody("agent:12"), { to_agent_id: 12 });
  assert.deepEqual(transferBody("language:es"), { language: "es" });
  assert.equal(transferBody(""), null);
  assert.equal(transferBody("agent:x"), null);
});

test("while waiting the sender sees who was asked and the seconds left", () => {
  const pending = { names: ["Bea"], seconds: 15, startedAt: 1_000 };
  assert.equal(pendingLeft(pending, 1_000), 15);
  assert.equal(pendingLeft(pending, 5_500), 11);
  assert.equal(pendingLeft(pending, 99_000), 0);
  assert.match(waitingWords(pending, 1_000), /^Offered to Bea: waiting for an answer, 15 s left\./);
  assert.match(waitingWords({ ...pending, names: ["Bea", "Cy"] }, 1_000), /^Offered to 2 agents \(Bea, Cy\)/);
  assert.equal(waitingWords(null, 0), "");
});

test("a lapse, a hand-over and every refusal are said in words", () => {
  assert.equal(lapsedWords("no_answer"), "Nobody took the transfer in time: the customer is still with you.");
  assert.match(lapsedWords("session_in_payment"), /paying/);
  assert.equal(handedOverWords({ agent: { name: "Bea" } }, "Front"), "Bea is now serving the customer at Front.");
  assert.match(transferRefusal({ code: "TRANSFER_TARGET_UNAVAILABLE" }), /Nobody you chose is free/);
  assert.match(transferRefusal({ code: "TRANSFER_IN_PROGRESS" }), /already being transferred/);
  assert.match(transferRefusal({ code: "INVALID_STATE" }), /cancel the payment first/);
  assert.equal(transferRefusal({ status: 401 }), "");
  assert.equal(transferRefusal({ code: "X", message: "boom" }), "The session could not be transferred: boom");
});

test("a transfer waiting for an answer comes back from the server's read after a reload", () => {
  const pending = { offers: [{ agent: { id: "12", name: "Bea" } }], expires_at: "2026-01-01T00:00:15Z", seconds_left: 9 };
  assert.deepEqual(pendingFromServer(pending, 1000), { names: ["Bea"], seconds: 9, startedAt: 1000 });
  assert.equal(pendingFromServer(null, 1000), null);
  assert.equal(pendingFromServer(undefined, 1000), null);
  assert.equal(waitingWords(pendingFromServer(pending, 1000), 1000), "Offered to Bea: waiting for an answer, 9 s left. The customer stays with you until then.");
});

test("cancelling says the customer stays, or why it could not", () => {
  assert.equal(lapsedWords("cancelled"), cancelledWords());
  assert.equal(cancelledWords(), "Transfer cancelled: the customer stays with you.");
  assert.equal(cancelRefusal({ code: "TRANSFER_ALREADY_ACCEPTED" }), "Too late to cancel: a colleague has already taken the customer over.");
  assert.equal(cancelRefusal({ code: "TRANSFER_NOT_PENDING" }), "There is no transfer to cancel: the customer is still with you.");
  assert.equal(cancelRefusal({ status: 401 }), "");
  assert.equal(cancelRefusal({ code: "X", status: 500, message: "Boom." }), "The transfer could not be cancelled: Boom.");
});
