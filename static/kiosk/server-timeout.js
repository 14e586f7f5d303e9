// The server's own time limit on a waiting session (pending: waiting for a person, or ordering
// alone before paying): the server abandons it SESSION_PENDING_TIMEOUT after its start, its last
// cart change or its last extension (twice that in accessible mode), however much the customer
// touches the screen. The kiosk reads when (GET .../timeout) each time that may have moved, warns
// `lead()` seconds ahead through app.js's "Are you still there?" (on screen, a sound, the voice in
// accessible mode), and a key or the button asks the server for the whole time again (POST .../timeout).
import { logFailure } from "../common/report.js";
import { watch } from "../common/store.js";

/** @typedef {import("./state.js").KioskState} KioskState */
/** @typedef {{session_id: string, status: string, timeout_at: string | null, seconds_left: number | null}} TimeoutBody */

/**
 * When to warn, in ms from `now`: `lead` seconds before the deadline, the deadline counted from
 * when the kiosk asked (`askedAt`), so it is never later than the server's; null when none runs.
 * @param {TimeoutBody} body @param {number} askedAt @param {number} lead seconds @param {number} now
 */
export function warnIn(body, askedAt, lead, now) {
  if (typeof body.seconds_left !== "number") return null;
  return Math.max(0, askedAt + (body.seconds_left - lead) * 1000 - now);
}

/**
 * @param {object} deps
 * @param {import("../common/store.js").Store<KioskState>} deps.store
 * @param {(path: string) => Promise<any>} deps.get
 * @param {(path: string) => Promise<any>} deps.post
 * @param {() => number} deps.lead how far ahead to warn, in seconds (doubled in accessible mode)
 * @param {(seconds: number) => void} deps.warn opens the warning with the seconds left
 */
export function createServerTimeout({ store, get, post, lead, warn }) {
  let timer = 0;
  let asked = 0; // only the latest answer schedules the warning
  const path = (/** @type {string} */ id) => `/api/public/sessions/${encodeURIComponent(id)}/timeout`;
  const pending = () => {
    const { status } = store.get();
    return Boolean(status && status.status === "pending");
  };

  /** @param {"GET" | "POST"} method */
  async function ask(method) {
    const { sessionId } = store.get();
    if (!sessionId) return;
    const mine = ++asked;
    const askedAt = Date.now();
    try {
      const body = /** @type {TimeoutBody} */ (await (method === "POST" ? post(path(sessionId)) : get(path(sessionId))));
      if (mine !== asked) return;
      window.clearTimeout(timer);
      const wait = warnIn(body, askedAt, lead(), Date.now());
      if (wait === null) return;
      const deadline = askedAt + /** @type {number} */ (body.seconds_left) * 1000;
      timer = window.setTimeout(() => {
        if (pending()) warn(Math.max(1, Math.round((deadline - Date.now()) / 1000)));
      }, wait);
    } catch (error) {
      // The session may have just ended (409) or the network gone: the status says what follows.
      logFailure(method === "POST" ? "asking the server for more time" : "reading the server's time limit", error);
    }
  }

  // The deadline moves with the start, a cart change, the mode and an extension: read it again then.
  watch(
    store,
    (s) => (s.sessionId && s.status && s.status.status === "pending" ? `${s.sessionId}:${Boolean(s.status.accessible_mode)}:${(s.order && s.order.updated_at) || ""}` : null),
    (key) => {
      if (key) return void ask("GET");
      asked += 1; // an answer still on its way schedules nothing
      window.clearTimeout(timer);
    },
  );

  return {
    /** The customer answered a warning: a waiting session gets its whole time again. */
    extend() {
      if (pending()) ask("POST");
    },
  };
}
