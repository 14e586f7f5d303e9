// JSON over fetch and the error envelope ({"error": {"code", "message", "details"}}) turned into
// an ApiError whose message is the server's words. Each app adds its own credentials, headers
// and reactions (a 401, a lost network) around sendJson, and its own words, from its own
// catalogue, for an answer without the server's message: this module says no sentence itself.
export class ApiError extends Error {
  /**
   * @param {number} status 0 when no answer came
   * @param {{error?: {code?: string, message?: string, details?: Record<string, unknown>}} | null} body
   * @param {number | null} [retryAfter] seconds, from the Retry-After header
   * @param {string} [answered] the app's words when the body has no message (a proxy's 502 page)
   */
  constructor(status, body, retryAfter, answered = "") {
    const error = (body && body.error) || {};
    super(error.message || answered);
    /** true when the server said no message: `message` is then the app's `answered` words */
    this.unsaid = !error.message;
    this.status = status;
    this.code = error.code || (status === 0 ? "NETWORK" : "HTTP_" + status);
    this.details = error.details || {};
    this.retryAfter = retryAfter;
  }
}

/**
 * Resolves with the parsed body of a 2xx answer (null when empty or not JSON); rejects with an
 * ApiError: status 0 and the `unreachable` words when no answer came at all, the `answered`
 * words when an answer came without the server's message.
 * @param {string} url
 * @param {{method?: string, headers?: Record<string, string>, body?: unknown, credentials?: RequestCredentials, unreachable: string, answered: (status: number) => string}} options
 * @returns {Promise<any>} the server's JSON, read by each caller as the endpoint's shape
 */
export async function sendJson(url, { method = "GET", headers = {}, body, credentials, unreachable, answered }) {
  /** @type {Record<string, string>} */
  const allHeaders = { Accept: "application/json", ...headers };
  if (body !== undefined) allHeaders["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(url, {
      method,
      headers: allHeaders,
      credentials,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (networkError) {
    throw new ApiError(0, { error: { message: unreachable } });
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (parseError) {
    data = null;
  }
  if (response.ok) return data;
  const retryAfter = Number(response.headers.get("Retry-After")) || null;
  throw new ApiError(response.status, data, retryAfter, answered(response.status));
}

/**
 * Reads of one thing that overlap (a timed poll and a reload after a click) can answer out of
 * order. `ask()` before each read gives the check for its answer: true unless the answer of a
 * read asked later was already taken (this one is older and would put an old state back).
 * @returns {{ ask: () => () => boolean }}
 */
export function newestAnswer() {
  let asked = 0;
  let taken = 0;
  return {
    ask() {
      const mine = ++asked;
      return () => {
        if (mine < taken) return false;
        taken = mine;
        return true;
      };
    },
  };
}
