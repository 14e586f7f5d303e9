// The kiosk API over fetch, cross-origin friendly: the API base comes from the configuration,
// every call carries the device headers (no cookies), and errors are ApiError (the shared
// static/common/http.js turns the error envelope into words). A 401 DEVICE_TOKEN_INVALID and a
// lost network are announced to listeners (main.js decides what to do).
import { ApiError, sendJson } from "../common/http.js";
import { device } from "./device.js";
import { config } from "./settings.js";

export { ApiError, config };

/** @type {{unpaired: Array<(error: ApiError) => void>, network: Array<(reachable: boolean) => void>}} */
const listeners = { unpaired: [], network: [] };
/** @param {"unpaired" | "network"} event @param {(payload: any) => void} handler */
export function on(event, handler) {
  listeners[event].push(handler);
}
const emit = (event, payload) => listeners[event].forEach((handler) => handler(payload));

export function url(path) {
  return path.startsWith("http") ? path : config.apiBase + path;
}

export async function api(method, path, body, { signed = true } = {}) {
  const headers = signed ? device.headers() : {};
  const unreachable = "The service cannot be reached.";
  try {
    const data = await sendJson(url(path), { method, headers, body, credentials: "omit", unreachable });
    emit("network", true);
    return data;
  } catch (error) {
    emit("network", error.status !== 0);
    if (signed && error.status === 401) emit("unpaired", error);
    throw error;
  }
}

export const get = (path) => api("GET", path);
export const post = (path, body) => api("POST", path, body);
