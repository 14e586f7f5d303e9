// The order board's one store: who this screen is, its numbers, the live link's state and the
// clock. main.js changes it; views.js draws it.
import { createStore } from "../common/store.js";

/**
 * @typedef {object} BoardState
 * @property {"loading" | "signin" | "board"} screen
 * @property {import("../common/display-api.js").DisplayMe | null} me
 * @property {import("./numbers.js").Numbers} numbers
 * @property {"" | "live" | "polling"} realtime
 * @property {boolean} sound
 * @property {number} now
 * @property {string} alert
 * @property {string} signinReason
 */

/** @type {BoardState} */
export const INITIAL = {
  screen: "loading",
  me: null,
  numbers: {},
  realtime: "",
  sound: false,
  now: Date.now(),
  alert: "",
  signinReason: "",
};

export const createBoardStore = () => createStore({ ...INITIAL });
