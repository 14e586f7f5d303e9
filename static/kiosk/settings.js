// The kiosk app's settings: config.js (window.KIOSK_CONFIG) over the defaults, and query
// parameters over both. Its own module, with no imports, because the address of the app's code
// (the API server's /static/, staticBase) is worked out from it before anything else loads.
const defaults = {
  apiBase: "",
  pollSeconds: 2,
  heartbeatSeconds: 30,
  inactivitySeconds: 90,
  // The "Are you still there?" warning, after inactivitySeconds untouched: at least 20 s (EN 301 549).
  stillThereSeconds: 20,
  // The thank-you and ended screens go back to the start after these, warning warningSeconds ahead
  // (so each lasts longer than the warning). Accessible mode doubles every time here.
  thankYouSeconds: 30,
  // Typing an email address on the thank-you screen holds its return to the attract screen; this
  // long without a key pressed, the countdown (thankYouSeconds) starts again.
  receiptTypingSeconds: 30,
  endedSeconds: 25,
  warningSeconds: 20,
  processorJsUrl: "https://js.stripe.com/v3/",
  fullscreen: true,
};

// Query parameters win over config.js (handy for a quick test on another host); numbers stay numbers.
function readConfig() {
  const merged = { ...defaults, ...(window.KIOSK_CONFIG || {}) };
  const query = new URLSearchParams(window.location.search);
  // Snake-case names for the timings tests shorten (?idle_seconds=5).
  /** @type {Record<string, string>} */
  const aliases = {
    api: "apiBase",
    idle_seconds: "inactivitySeconds",
    still_there_seconds: "stillThereSeconds",
    poll_seconds: "pollSeconds",
    thank_you_seconds: "thankYouSeconds",
    receipt_typing_seconds: "receiptTypingSeconds",
    ended_seconds: "endedSeconds",
    warning_seconds: "warningSeconds",
  };
  for (const [name, value] of query) {
    const key = aliases[name] || name;
    if (!(key in merged) && !["staticBase", "realtimeKey", "wsHost", "wsPort", "forceTLS", "processorPublishableKey"].includes(key)) continue;
    const kind = typeof (/** @type {Record<string, unknown>} */ (defaults))[key];
    /** @type {Record<string, unknown>} */ (merged)[key] = kind === "number" ? Number(value) : kind === "boolean" ? value !== "false" : value;
  }
  merged.apiBase = (merged.apiBase || window.location.origin).replace(/\/+$/, "");
  return merged;
}

export const config = readConfig();

/** The API server's static folder, ending in "/" (config.staticBase, else apiBase + "/static/"). */
export function staticBase() {
  const base = String(config.staticBase || config.apiBase + "/static/").replace(/\/?$/, "/");
  return new URL(base, document.baseURI).href;
}
