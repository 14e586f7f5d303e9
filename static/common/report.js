// Failures nobody needs to read on screen are still never dropped: they go to the console as a
// warning with what failed and why (an error would be a bug; these are expected, e.g. the network).

/** @param {unknown} error */
export function reasonOf(error) {
  if (error && typeof error === "object") {
    const { message, code } = /** @type {{message?: string, code?: string}} */ (error);
    if (message || code) return String(message || code);
  }
  return error ? String(error) : "unknown error";
}

/**
 * @param {string} what what was being done, e.g. "the heartbeat"
 * @param {unknown} error
 */
export function logFailure(what, error) {
  console.warn(`${what} failed: ${reasonOf(error)}`);
}
