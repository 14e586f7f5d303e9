// The kiosk's session actions (static/kiosk/session.js) against a stand-in kiosk API: fetch is
// answered in-process by route, and the DOM parts (video, card fields, announcements) are
// recording stand-ins. Importing this module gives the kiosk's modules the browser globals they
// read when they load (window's storage, crypto, the API's address), so a test file imports it
// before any kiosk module that reads its settings.
import assert from "node:assert/strict";

const stored = new Map();
globalThis.window = /** @type {any} */ ({
  localStorage: { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => stored.set(k, v) },
  crypto: globalThis.crypto,
  location: new URL("http://kiosk.test/"),
  KIOSK_CONFIG: { apiBase: "http://api.test" },
  setTimeout,
  clearTimeout,
  setInterval,
  clearInterval,
});

const { createSession } = await import("../../../static/kiosk/session.js");
const { createKioskStore } = await import("../../../static/kiosk/state.js");

/** What the kiosk API answers: a JSON body with a status. */
export function answer(status, body) {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

/**
 * Answers fetch by "METHOD path" with [status, body], or a function giving it (for answers that
 * change); an unknown route is the API's 404. Returns the list of requests, as they are made.
 */
export function serve(routes) {
  const asked = [];
  globalThis.fetch = async (url, init = {}) => {
    const key = `${init.method || "GET"} ${new URL(url).pathname}`;
    asked.push(key);
    const route = typeof routes[key] === "function" ? routes[key]() : routes[key];
    const [status, body] = route || [404, { error: { code: "NOT_FOUND", message: `no route ${key}` } }];
    return answer(status, body);
  };
  return asked;
}

const opened = [];

/**
 * A session with its own store; what it announced (`said`), how it finished (`finished`) and the
 * video channels it joined are recorded. Closed by closeKiosks (call it after each test).
 */
export function kiosk({ pollSeconds = 3600, paymentForm = { replaceChildren() {}, append() {} } } = {}) {
  const store = createKioskStore();
  const said = [];
  const finished = [];
  const video = { channels: [], stopped: 0, start(channel) { this.channels.push(channel); }, stop() { this.stopped += 1; } };
  const session = createSession({
    store,
    config: { pollSeconds },
    video,
    paymentForm: /** @type {any} */ (paymentForm),
    announce: (text) => said.push(text),
    onFinished: (how) => finished.push(how),
  });
  opened.push(session);
  return { store, session, said, finished, video };
}

/** Closes every session kiosk() made (their polling timers stop). */
export function closeKiosks() {
  opened.splice(0).forEach((session) => session.close());
}

/** Waits on a condition (no fixed sleep), failing after two seconds. @param {() => boolean} done */
export async function until(done, what) {
  const end = Date.now() + 2000;
  while (!done()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
