// The agent dashboard's live link (static/agent/realtime.js) after an outage: pusher-js spaces its
// own tries out (up to a minute), so the header would say "Live updates unavailable" long after
// the socket could be had again. Every answered poll while the link is down connects afresh
// instead, at most every `reconnectSeconds`. The browser test (tests/agent_dashboard/
// test_header_and_tokens.py) shows the header's words over a real socket.
import assert from "node:assert/strict";
import { test } from "node:test";

import { IncomingFeed } from "../../static/agent/realtime.js";

/** A feed whose pusher-js stand-in records connects, polls answered with no sessions, and a clock the test moves. */
function feedAt(state) {
  const clock = { now: 1_000_000 };
  const calls = [];
  const feed = new IncomingFeed({
    config: { reconnectSeconds: 5 },
    agentId: 7,
    onSnapshot: () => {},
    onState: () => {},
  });
  feed.pusher = {
    connection: { state },
    disconnect: () => calls.push("disconnect"),
    connect: () => calls.push("connect"),
  };
  return { feed, calls, clock };
}

async function withAnsweringServer(clock, body) {
  const realFetch = globalThis.fetch;
  const realNow = Date.now;
  globalThis.fetch = async () => new Response(JSON.stringify({ sessions: [] }), { status: 200 });
  Date.now = () => clock.now;
  try {
    await body();
  } finally {
    globalThis.fetch = realFetch;
    Date.now = realNow;
  }
}

test("a poll answered while the link is down connects it afresh, at most every reconnectSeconds", async () => {
  const { feed, calls, clock } = feedAt("unavailable");
  await withAnsweringServer(clock, async () => {
    await feed.pollOnce();
    assert.deepEqual(calls, ["disconnect", "connect"]);
    clock.now += 4_900; // the next poll, within 5 s: pusher-js is left to its try
    await feed.pollOnce();
    assert.deepEqual(calls, ["disconnect", "connect"]);
    clock.now += 100; // 5 s after the last fresh connection
    await feed.pollOnce();
    assert.deepEqual(calls, ["disconnect", "connect", "disconnect", "connect"]);
  });
});

test("a live link, or one connected with its subscription on its way, is left alone", async () => {
  const live = feedAt("connected");
  live.feed.live = true;
  const subscribing = feedAt("connected");
  await withAnsweringServer(live.clock, async () => {
    await live.feed.pollOnce();
    await subscribing.feed.pollOnce();
  });
  assert.deepEqual(live.calls, []);
  assert.deepEqual(subscribing.calls, []);
});

test("a poll that is not answered does not reconnect", async () => {
  const { feed, calls, clock } = feedAt("unavailable");
  const realFetch = globalThis.fetch;
  const realNow = Date.now;
  const realWarn = console.warn;
  globalThis.fetch = async () => {
    throw new TypeError("Failed to fetch");
  };
  Date.now = () => clock.now;
  const warned = [];
  console.warn = (line) => warned.push(line); // the failure is logged (static/common/report.js)
  try {
    await feed.pollOnce();
  } finally {
    globalThis.fetch = realFetch;
    Date.now = realNow;
    console.warn = realWarn;
  }
  assert.deepEqual(calls, []);
  assert.equal(warned.length, 1);
});
