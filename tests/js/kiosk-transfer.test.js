// The kiosk when a colleague takes the session over: seen from two status
// bodies, said in the customer's language.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./support/catalogues.js"; // the kiosk's words, from the .po files
import { agentChanged } from "../../static/kiosk/status.js";
import { agentTookOver } from "../../static/kiosk/words.js";

const ann = { id: "7", name: "Ann" };
const bea = { id: "9", name: "Bea" };

test("a new agent on a session still served is a take-over; an arrival or an end is not", () => {
  assert.equal(agentChanged({ status: "active", agent: ann }, { status: "active", agent: bea }), true);
  assert.equal(agentChanged({ status: "payment", agent: ann }, { status: "active", agent: bea }), true);
  assert.equal(agentChanged({ status: "active", agent: ann }, { status: "active", agent: ann }), false);
  assert.equal(agentChanged({ status: "pending", agent: null }, { status: "active", agent: bea }), false);
  assert.equal(agentChanged(null, { status: "active", agent: bea }), false);
  assert.equal(agentChanged({ status: "active", agent: ann }, { status: "completed", agent: bea }), false);
});

test("the new agent is named in the customer's language", () => {
  assert.equal(agentTookOver("Bea", "en-US"), "Bea is helping you now.");
  assert.equal(agentTookOver("Bea", "es-ES"), "Ahora te atiende Bea.");
  assert.equal(agentTookOver("Bea", "fr-FR"), "Bea s'occupe de vous maintenant.");
  assert.equal(agentTookOver("Bea", "de-DE"), "Jetzt hilft Ihnen Bea weiter.");
});
