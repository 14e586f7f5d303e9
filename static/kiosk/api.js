// The kiosk API over fetch, cross-origin friendly: the API base comes from the configuration,
// every call carries the device headers (no cookies), and errors are ApiError. A 401
// DEVICE_TOKEN_INVALID and a lost network are announced to listeners (main.js decides what to do).
import { device } from "./device.js";

const defaults = {
  apiBase: "",
  pollSeconds: 2,
  heartbeatSeconds: 30,
  inactivitySeconds: 90,
  stillThereSeconds: 20,
  thankYouSeconds: 12,
  endedSeconds: 10,
  processorJsUrl: "https://js.stripe.com/v3/",
  fullscreen: true,
};

// Query parameters win over config.js (handy for a quick test on another host); numbers stay numbers.
function readConfig() {
  const merged = { ...defaults, ...(window.KIOSK_CONFIG || {}) };
  const query = new URLSearchParams(window.location.search);
  const aliases = { api: "apiBase" };
  for (const [name, value] of query) {
    const key = aliases[name] || name;
    if (!(key in merged) && !["staticBase", "realtimeKey", "wsHost", "wsPort", "forceTLS", "processorPublishableKey"].includes(key)) continue;
    const kind = typeof defaults[key];
    merged[key] = kind === "number" ? Number(value) : kind === "boolean" ? value !== "false" : value;
  }
  merged.apiBase = (merged.apiBase || window.location.origin).replace(/\/+$/, "");
  return merged;
}

export const config = readConfig();

export class ApiError extends Error {
  constructor(status, body, retryAfter) {
    const error = (body && body.error) || {};
    super(error.message || `The server answered ${status}.`);
    this.status = status;
    this.code = error.code || (status === 0 ? "NETWORK" : "HTTP_" + status);
    this.details = error.details || {};
    this.retryAfter = retryAfter;
  }
}

const listeners = { unpaired: [], network: [] };
export function on(event, handler) {
  listeners[event].push(handler);
}
const emit = (event, payload) => listeners[event].forEach((handler) => handler(payload));

export function url(path) {
  return path.startsWith("http") ? path : config.apiBase + path;
}

export async function api(method, path, body, { signed = true } = {}) {
  const headers = { Accept: "application/json" };
  if (signed) Object.assign(headers, device.headers());
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(url(path), {
      method,
      headers,
      credentials: "omit",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (networkError) {
    emit("network", false);
    throw new ApiError(0, { error: { message: "The service cannot be reached." } });
  }
  emit("network", true);
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (parseError) {
    data = null;
  }
  if (response.ok) return data;
  const error = new ApiError(response.status, data, Number(response.headers.get("Retry-After")) || null);
  if (signed && response.status === 401) emit("unpaired", error);
  throw error;
}

export const get = (path) => api("GET", path);
export const post = (path, body) => api("POST", path, body);
