// The kitchen display's one store: who this screen is (GET /api/displays/me), its tickets, the
// printers in trouble, the live link's state, the moves on their way, the clock the ages are drawn with, and what went
// wrong in words. Actions (main.js) change it; views.js draws it.
import { createStore } from "../common/store.js";

/**
 * @typedef {object} KitchenState
 * @property {"loading" | "signin" | "kitchen"} screen
 * @property {import("../common/display-api.js").DisplayMe | null} me
 * @property {import("./tickets.js").Tickets} tickets
 * @property {import("./printers.js").PrinterAlert[]} printers that cannot print, or hold a ticket too long
 * @property {"" | "live" | "polling"} realtime
 * @property {Record<string, boolean>} moving tickets whose move is on its way
 * @property {boolean} sound
 * @property {number} now
 * @property {string} alert
 * @property {string} signinReason
 */

/** @type {KitchenState} */
export const INITIAL = {
  screen: "loading",
  me: null,
  tickets: {},
  printers: [],
  realtime: "",
  moving: {},
  sound: false,
  now: Date.now(),
  alert: "",
  signinReason: "",
};

export const createKitchenStore = () => createStore({ ...INITIAL });
