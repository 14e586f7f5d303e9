// The screens' API (/api/displays/*) for the kitchen display and the order board. A wall screen
// signs in with a display token: the link the owner copies from the panel carries it in the
// fragment (#token=…, never sent to a server or kept in its logs); it is kept in this browser's
// storage and the fragment is cleared. Without a token the screen uses the signed-in user's
// session (owner, manager or kitchen role), with Django's CSRF cookie on writes.
import { interpolate, pgettext } from "./gettext.js";
import { sendJson } from "./http.js";

/**
 * @typedef {{poll_seconds: number, ticket_warn_seconds: number, ticket_late_seconds: number,
 *   print_late_seconds: number, ready_highlight_seconds: number, ready_seconds: number}} DisplaySettings
 * @typedef {{business: {id: string, name: string}, screens: string[], app_key: string,
 *   channels: Record<string, string>, settings: DisplaySettings}} DisplayMe
 */

/** @param {string} name */
function readCookie(name) {
  const found = document.cookie.split("; ").find((part) => part.startsWith(name + "="));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
}

export class DisplayApi {
  /** @param {string} screen "kitchen" or "board": its token is kept under its own name */
  constructor(screen) {
    const key = `display.${screen}.token`;
    const fromLink = new URLSearchParams(window.location.hash.slice(1)).get("token");
    if (fromLink) {
      window.localStorage.setItem(key, fromLink);
      window.history.replaceState(null, "", window.location.pathname + window.location.search);
    }
    /** @type {string} */
    this.token = window.localStorage.getItem(key) || "";
    this.storageKey = key;
    this.business = new URLSearchParams(window.location.search).get("business") || "";
  }

  /** The screen's credentials: its token, or (signed in) Django's CSRF header on a write. @param {string} method */
  headers(method) {
    /** @type {Record<string, string>} */
    const headers = {};
    if (this.token) headers["X-Display-Token"] = this.token;
    else if (method !== "GET") headers["X-CSRFToken"] = readCookie("csrftoken");
    return headers;
  }

  /** @param {string} path under /api/displays/ */
  url(path) {
    const query = this.business && !this.token ? `?business=${encodeURIComponent(this.business)}` : "";
    return `/api/displays/${path}${query}`;
  }

  /** A revoked or wrong token is forgotten, so the screen asks for a new link. */
  forgetToken() {
    window.localStorage.removeItem(this.storageKey);
    this.token = "";
  }

  /** @param {string} path under /api/displays/ @param {{method?: string, body?: any, form?: boolean}} [options] */
  call(path, { method = "GET", body } = {}) {
    return sendJson(this.url(path), {
      method,
      headers: this.headers(method),
      body,
      credentials: "same-origin",
      unreachable: pgettext("display", "The server cannot be reached. Retrying…"),
      answered: (status) => interpolate(pgettext("display", "The server answered %(status)s."), { status }),
    });
  }
}
