// The one channel authoriser of every app (static/common/channel-auth.js): what it posts, with
// which credentials, and what pusher-js is told on success and on a refusal.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { channelAuthorization, deviceAuthorization, sessionAuthorization } from "../../static/common/channel-auth.js";

const realFetch = globalThis.fetch;
const realWarn = console.warn;
afterEach(() => {
  globalThis.fetch = realFetch;
  console.warn = realWarn;
});

/** Answers every fetch with `status` and `body`, keeping what was asked. */
function fakeServer(status, body) {
  const asked = [];
  globalThis.fetch = async (url, init) => {
    asked.push({ url, init });
    return { ok: status >= 200 && status < 300, status, json: async () => body };
  };
  return asked;
}

/** Runs pusher-js's side: the handler with a socket and channel, and the callback's arguments. */
function sign(authorization, channelName = "private-agent.7") {
  return new Promise((resolve) => {
    authorization.customHandler({ socketId: "123.456", channelName }, (error, body) => resolve({ error, body }));
  });
}

test("a signed-in browser posts the form with its cookie and the CSRF header read at signing time", async () => {
  const asked = fakeServer(200, { auth: "key:signature" });
  let token = "first";
  const authorization = sessionAuthorization("/broadcasting/auth", () => ({ "X-XSRF-TOKEN": token }));
  token = "after-sign-in";
  assert.deepEqual(await sign(authorization), { error: null, body: { auth: "key:signature" } });
  const [{ url, init }] = asked;
  assert.equal(url, "/broadcasting/auth");
  assert.equal(init.method, "POST");
  assert.equal(init.credentials, "same-origin");
  assert.equal(init.headers["X-XSRF-TOKEN"], "after-sign-in");
  assert.equal(init.headers["Content-Type"], "application/x-www-form-urlencoded");
  assert.equal(init.body.toString(), "socket_id=123.456&channel_name=private-agent.7");
});

test("a device sends its own headers and never a cookie", async () => {
  const asked = fakeServer(200, { auth: "key:sig", channel_data: "{}" });
  const authorization = deviceAuthorization("https://api.example/api/public/broadcasting/auth", () => ({ "X-Kiosk-Id": "k1" }));
  const { body } = await sign(authorization, "presence-owner.3");
  assert.deepEqual(body, { auth: "key:sig", channel_data: "{}" });
  assert.equal(asked[0].init.credentials, "omit");
  assert.equal(asked[0].init.headers["X-Kiosk-Id"], "k1");
});

test("a refusal reaches pusher-js as an error and is logged with what was being signed", async () => {
  fakeServer(403, { error: { code: "FORBIDDEN" } });
  const warned = [];
  console.warn = (text) => warned.push(text);
  const authorization = channelAuthorization({ endpoint: "/x", headers: () => ({}), credentials: "same-origin", what: "signing the call channel" });
  const { error, body } = await sign(authorization);
  assert.equal(body, null);
  assert.match(error.message, /403/);
  assert.deepEqual(warned, ["signing the call channel failed: channel authorization answered 403"]);
});

test("an unreachable server is an error too, never an unhandled rejection", async () => {
  globalThis.fetch = async () => {
    throw new TypeError("Failed to fetch");
  };
  console.warn = () => {};
  const { error, body } = await sign(sessionAuthorization("/broadcasting/auth", () => ({})));
  assert.equal(body, null);
  assert.equal(error.message, "Failed to fetch");
});
