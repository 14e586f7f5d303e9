// The server's time limit on a waiting session as the kiosk keeps it (static/kiosk/server-timeout.js):
// when the warning comes, what reads the deadline again, and what an extension asks.
import assert from "node:assert/strict";
import { mock, test } from "node:test";

import { createServerTimeout, warnIn } from "../../static/kiosk/server-timeout.js";
import { createKioskStore } from "../../static/kiosk/state.js";

const body = (seconds_left) => ({ session_id: "ses_1", status: "pending", timeout_at: null, seconds_left });

test("the warning comes the lead before the deadline, counted from when the kiosk asked", () => {
  assert.equal(warnIn(body(180), 1000, 20, 1000), 160_000);
  assert.equal(warnIn(body(180), 1000, 20, 3000), 158_000); // the answer took 2 s: the deadline did not move
  assert.equal(warnIn(body(15), 0, 20, 0), 0); // less than the lead left: at once
  assert.equal(warnIn(body(null), 0, 20, 0), null); // no server timeout (active, payment)
});

test("read when the session waits, again at a cart change and a mode change; extended by POST", async () => {
  globalThis.window = globalThis;
  mock.timers.enable({ apis: ["setTimeout", "Date"] });
  try {
    const store = createKioskStore();
    const asked = [];
    const warned = [];
    const answer = (method) => async (path) => (asked.push(`${method} ${path}`), body(method === "POST" ? 180 : 30));
    const timeout = createServerTimeout({ store, get: answer("GET"), post: answer("POST"), lead: () => 20, warn: (s) => warned.push(s) });
    const flush = () => new Promise((resolve) => setImmediate(resolve));
    timeout.extend(); // no session: nothing
    store.set({ sessionId: "ses_1", status: { status: "pending", accessible_mode: false } });
    await flush();
    assert.deepEqual(asked, ["GET /api/public/sessions/ses_1/timeout"]);
    mock.timers.tick(9_999);
    assert.deepEqual(warned, []);
    mock.timers.tick(1);
    assert.deepEqual(warned, [20]);
    store.set({ order: { updated_at: "2026-01-01T00:00:00Z", lines: [] } });
    store.set({ status: { status: "pending", accessible_mode: true } });
    await flush();
    assert.equal(asked.length, 3);
    timeout.extend();
    await flush();
    assert.equal(asked.at(-1), "POST /api/public/sessions/ses_1/timeout");
    mock.timers.tick(159_999);
    assert.equal(warned.length, 1);
    mock.timers.tick(1);
    assert.deepEqual(warned, [20, 20]);
    store.set({ status: { status: "active", accessible_mode: true } }); // a person took it: nothing runs
    timeout.extend();
    mock.timers.tick(600_000);
    assert.equal(asked.length, 4);
    assert.equal(warned.length, 2);
  } finally {
    mock.timers.reset();
    delete globalThis.window;
  }
});
