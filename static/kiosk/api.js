// The kiosk API over fetch, cross-origin friendly: the API base comes from the configuration,
// every call carries the device headers (no cookies), and errors are ApiError (the shared
// static/common/http.js turns the error envelope into words). A 401 DEVICE_TOKEN_INVALID and a
// lost network are announced to listeners (main.js decides what to do).
import { ApiError, sendJson } from "../common/http.js";
import { asFailure } from "../common/report.js";
import { device } from "./device.js";
import { t } from "./messages.js";
import { config } from "./settings.js";

export { ApiError, config };

/** @type {{unpaired: Array<(error: ApiError) => void>, network: Array<(reachable: boolean) => void>}} */
const listeners = { unpaired: [], network: [] };
/**
 * @template {"unpaired" | "network"} E
 * @param {E} event @param {(typeof listeners)[E][number]} handler
 */
export function on(event, handler) {
  /** @type {Array<typeof handler>} */ (listeners[event]).push(handler);
}
/**
 * @template {"unpaired" | "network"} E
 * @param {E} event @param {Parameters<(typeof listeners)[E][number]>[0]} payload
 */
const emit = (event, payload) => listeners[event].forEach((handler) => /** @type {(payload: unknown) => void} */ (handler)(payload));

/** A path on the API server (an absolute URL as it is). @param {string} path */
export function url(path) {
  return path.startsWith("http") ? path : config.apiBase + path;
}

// An ApiError's own message, for the console, is English: the screens say why a call failed in
// the customer's language from its status and code (words.js failureReason).
const answered = (/** @type {number} */ status) => t("en-US", "error.answered", { status });

/**
 * @param {string} method @param {string} path @param {unknown} [body]
 * @param {{signed?: boolean}} [options] signed: with the device headers
 * @returns {Promise<any>} the endpoint's JSON, read by each caller as its shape
 */
export async function api(method, path, body, { signed = true } = {}) {
  const headers = signed ? device.headers() : {};
  const unreachable = t("en-US", "error.unreachable");
  try {
    const data = await sendJson(url(path), { method, headers, body, credentials: "omit", unreachable, answered });
    emit("network", true);
    return data;
  } catch (caught) {
    const error = asFailure(caught);
    emit("network", error.status !== 0);
    if (signed && error.status === 401 && error instanceof ApiError) emit("unpaired", error);
    throw error;
  }
}

export const get = (/** @type {string} */ path) => api("GET", path);
/** @param {string} path @param {unknown} [body] */
export const post = (path, body) => api("POST", path, body);
