// Failures nobody needs to read on screen are still never dropped: they go to the console as a
// warning with what failed and why (an error would be a bug; these are expected, e.g. the network).

/**
 * What a caught value says of itself: its message or code, or "" when it says nothing (the
 * screen then says "unknown error" in its own catalogue's words).
 * @param {unknown} error
 */
export function reasonOf(error) {
  if (error && typeof error === "object") {
    const { message, code } = /** @type {{message?: string, code?: string}} */ (error);
    if (message || code) return String(message || code);
  }
  return error ? String(error) : "";
}

/**
 * @typedef {Error & {status?: number, code?: string, details?: Record<string, unknown>, retryAfter?: number | null, unsaid?: boolean}} Failure
 *   what a catch holds here: an Error, often an ApiError (static/common/http.js) with its status
 */

/**
 * A caught value as the Failure it is: an Error as it is, anything else (nothing here throws
 * one) as an Error saying it.
 * @param {unknown} error
 * @returns {Failure}
 */
export function asFailure(error) {
  return error instanceof Error ? error : new Error(reasonOf(error));
}

/**
 * @param {string} what what was being done, e.g. "the heartbeat"
 * @param {unknown} error
 */
export function logFailure(what, error) {
  console.warn(`${what} failed: ${reasonOf(error) || "no reason given"}`);
}
