// The agent API over fetch: same-origin cookie session, X-XSRF-TOKEN on every mutating call
// (read from the XSRF-TOKEN cookie at call time: it changes at sign-in), errors as ApiError
// (static/common/http.js turns the error envelope into words).
import { interpolate, pgettext } from "../common/gettext.js";
import { sendJson } from "../common/http.js";
import { asFailure } from "../common/report.js";

export { ApiError } from "../common/http.js";

/** @param {string} name */
export function readCookie(name) {
  const prefix = name + "=";
  const found = document.cookie.split("; ").find((part) => part.startsWith(prefix));
  return found ? decodeURIComponent(found.slice(prefix.length)) : "";
}

/** The header every mutating call carries (read now: the cookie changes at sign-in). */
export const xsrfHeaders = () => ({ "X-XSRF-TOKEN": readCookie("XSRF-TOKEN") });

/** @type {{unauthenticated: Array<(error: import("../common/report.js").Failure) => void>}} */
const listeners = { unauthenticated: [] };
/** @param {(error: import("../common/report.js").Failure) => void} handler */
export function onUnauthenticated(handler) {
  listeners.unauthenticated.push(handler);
}

// Calls that may answer 401 as part of their normal work (who am I, sign-in) do not trigger the
// "your session ended" flow.
const QUIET_401 = new Set(["/api/user", "/api/login", "/api/login/2fa", "/api/logout"]);

// Requests still on their way. Signing out waits for them: the server saves the cookie session
// at the end of every request, and one that ends after the sign-out deleted it fails.
/** @type {Set<Promise<unknown>>} */
const inFlight = new Set();
export function settled() {
  return Promise.allSettled([...inFlight]);
}

/**
 * @param {string} method @param {string} path @param {unknown} [body]
 * @returns {Promise<any>} the endpoint's JSON, read by each caller as its shape
 */
export function api(method, path, body) {
  const request = send(method, path, body);
  inFlight.add(request);
  // The caller handles the rejection; this copy only keeps the in-flight set right.
  request.finally(() => inFlight.delete(request)).catch((error) => error);
  return request;
}

/** An answer without the server's message (a proxy's error page). @param {number} status */
export const answered = (status) => interpolate(pgettext("agent", "The server answered %(status)s."), { status });

/** @param {string} method @param {string} path @param {unknown} [body] */
async function send(method, path, body) {
  const headers = method === "GET" ? {} : xsrfHeaders();
  const unreachable = pgettext("agent", "The server cannot be reached. Check the connection.");
  try {
    return await sendJson(path, { method, headers, body, credentials: "same-origin", unreachable, answered });
  } catch (caught) {
    const error = asFailure(caught);
    if (error.status === 401 && !QUIET_401.has(path.split("?")[0])) {
      listeners.unauthenticated.forEach((handler) => handler(error));
    }
    throw error;
  }
}

/** @param {string} path */
export const get = (path) => api("GET", path);
/** @param {string} path @param {unknown} [body] */
export const post = (path, body) => api("POST", path, body);
/** @param {string} path */
export const del = (path) => api("DELETE", path);
