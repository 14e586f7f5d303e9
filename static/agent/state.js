// The agent dashboard's one store: who is signed in (GET /api/user), the queue, the session in
// hand with its cart (the server's answers as they came, plus the lines the agent is building),
// my sessions today and my tokens. Actions (main.js, session.js, signin.js) change it; views.js
// draws it.
import { NO_CHAT } from "../common/chat-log.js";
import { createStore } from "../common/store.js";
import { EMPTY_QUEUE } from "./queue-state.js";
import { NO_TRANSFER } from "./transfer-state.js";

/**
 * @typedef {{id: string, name?: string, email: string, agent_status: string, languages?: string[], status_reason?: string, status_message?: string,
 *   capacity?: number, sessions_held?: number}} User GET /api/user (capacity, sessions_held: its seats, what the status line says)
 * @typedef {{id: string, status: string, kiosk: {name: string, location?: string | null}, business: {name: string}, video_channel: string, duration_seconds?: number, customer_locale?: string, accessible_mode?: boolean,
 *   medium?: string, accepted_at?: string | null}} Session
 * @typedef {{id: string, name: string, description?: string, price_cents: number, photo_url?: string | null, sold_out?: boolean,
 *   stock_left?: number | null, modifier_groups: import("./modifiers.js").ModifierGroup[]}} MenuItem
 * @typedef {{id: string, name: string, sort_order: number, menu_items: MenuItem[]}} MenuCategory GET /api/menu
 * @typedef {{id: string, accepted_at: string | null, ended_at: string | null, status: string, kiosk: {name: string},
 *   total_cents: number | null, currency: string, handed_over_to?: {name: string} | null}} HistoryRow GET /api/sessions/mine
 * @typedef {{id: string, name: string, created_at: string, last_used_at: string | null}} Token GET /api/tokens
 *
 * @typedef {object} AgentState
 * @property {User | null} user
 * @property {{open: boolean, reason: string, step: "password" | "code", error: string, waitLeft: number}} signIn
 * @property {boolean} locked the dashboard sits under the sign-in form (a 401 mid-work)
 * @property {boolean} started the dashboard is shown (after the first sign-in)
 * @property {"queue" | "history" | "tokens"} tab
 * @property {string} alert
 * @property {string} live "connected", else the socket's state ("connecting", "unavailable", …); "" before the feed starts
 * @property {boolean} muted
 * @property {import("./queue-state.js").Queue} queue
 * @property {number} now the clock the waiting times are drawn with (ticks every second)
 * @property {Session | null} session the session in hand
 * @property {import("./cart-state.js").Order | null} order the server's last word on its order
 * @property {import("./payment-words.js").Payment | null} payment its order's latest payment (the cause of a failed card)
 * @property {import("./cart-state.js").Line[]} lines the cart the agent builds
 * @property {import("./cart-state.js").Line[]} saved the lines the server last saved (with their option ids, which
 *   the POST's answer does not carry): what a refused change goes back to
 * @property {import("./cart-state.js").LineErrors} lineErrors
 * @property {boolean} saving a cart is on its way to the server
 * @property {string} cartError
 * @property {import("./cart-state.js").Line[] | null} unsaved the cart a refused save wanted (offered again by "Try again")
 * @property {{problem: "" | "reason" | "unpaid"}} ending what holds the end back (cart-state.js endCheck)
 * @property {MenuCategory[] | null} menu the menu's categories (GET /api/menu)
 * @property {string} menuQuery what the agent typed in the menu's search box
 * @property {{itemId: string, name: string} | null} pointed the item the customer last pointed at (MenuItemPointed)
 * @property {import("./transfer-state.js").Transfer} transfer handing the session in hand to a colleague
 * @property {import("../common/chat-log.js").Chat} chat the session's text chat with the customer (chat.js)
 * @property {import("./held-state.js").HeldCard[]} held the other sessions the agent holds (cards), and those that
 *   just left its hands (their outcome shown until dismissed)
 * @property {string | null} viewed the held card opened on the main view (null: the session in hand)
 * @property {string} result what the last session came to
 * @property {HistoryRow[] | null} history GET /api/sessions/mine
 * @property {import("./today-figures.js").MyToday | null} today GET /api/reports/me/today (my figures for today)
 * @property {Token[] | null} tokens GET /api/tokens
 * @property {{error: string, issued: string}} tokenForm making a token: why it failed, or the new token (shown once)
 */

/** @type {AgentState} */
export const INITIAL = {
  user: null,
  signIn: { open: false, reason: "", step: "password", error: "", waitLeft: 0 },
  locked: false,
  started: false,
  tab: "queue",
  alert: "",
  live: "",
  muted: false,
  queue: EMPTY_QUEUE,
  now: Date.now(),
  session: null,
  order: null,
  payment: null,
  lines: [],
  saved: [],
  lineErrors: {},
  saving: false,
  cartError: "",
  unsaved: null,
  ending: { problem: "" },
  menu: null,
  menuQuery: "",
  pointed: null,
  transfer: NO_TRANSFER,
  chat: NO_CHAT,
  held: [],
  viewed: null,
  result: "",
  history: null,
  today: null,
  tokens: null,
  tokenForm: { error: "", issued: "" },
};

/** @param {Partial<AgentState>} [overrides] */
export const createAgentStore = (overrides = {}) => createStore({ ...INITIAL, ...overrides });

/** @type {AgentState["ending"]} */
const NOT_ENDING = { problem: "" };

/** What a closed session leaves: nothing of it. */
export const NO_SESSION = Object.freeze({
  session: null,
  order: null,
  payment: null,
  lines: [],
  saved: [],
  lineErrors: {},
  cartError: "",
  unsaved: null,
  ending: NOT_ENDING,
  menu: null,
  menuQuery: "",
  pointed: null,
  transfer: NO_TRANSFER,
});

/** Whether the cart is locked (the customer is paying). @param {AgentState} state */
export const cartLocked = (state) => Boolean(state.session && state.session.status === "payment");
