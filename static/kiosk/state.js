// The kiosk app's one store: what the screen shows, made of the server's answers as they came
// (the kiosk profile, the session status body, the order, the payment) and what the customer
// chose (the language). Actions (actions.js, session.js) change it; views.js draws it.
import { createStore } from "../common/store.js";
import { NO_MAIL } from "./receipt.js";
import { NO_PRINT } from "./receipt-print.js";
import { NO_CHAT } from "../common/chat-log.js";
import { NOT_ALONE } from "./self-service.js";
import { ACCESS_OFF } from "./access.js";

/**
 * @typedef {"loading" | "pairing" | "attract" | "waiting" | "session" | "thanks" | "ended"} Screen
 * @typedef {{business: {name: string, logo_url?: string | null}, settings: {attract_message?: string, primary_color?: string}, name?: string,
 *   mount?: import("./access.js").Mount}} Profile
 * @typedef {{session_id?: string, status: string, agent?: {id?: string, name: string, avatar_url?: string | null} | null, video_channel?: string | null, end_reason?: string | null,
 *   queue?: import("./words.js").QueuePlace | null,
 *   payment?: {method: string, reader: import("./reader.js").Reader | null, failure_code?: string} | null, accessible_mode?: boolean, medium?: "video" | "chat",
 *   reader_refusal?: import("./reader.js").ReaderRefusal | null}} StatusBody
 * @typedef {"ready" | "processing" | "declined" | "error"} PaymentState
 * @typedef {{amount_cents: number, currency: string, client_secret: string, status?: string, failure_message?: string | null, failure_code?: string | null,
 *   method?: "card_present" | "card", reader?: import("./reader.js").Reader | null, card_fields_fallback?: boolean, instead_of_reader?: boolean,
 *   state: PaymentState, stateText: string, error: string, mode: "demo" | "live", mounted: boolean}} Payment
 *
 * @typedef {{orderNumber: string, totalCents: number, currency: string, demo: boolean, sessionId: string,
 *   order: import("./cart.js").Order | null, receiptUrl: string | null}} Thanks the paid order; receiptUrl once the server gives it
 *
 * @typedef {object} KioskState
 * @property {Screen} screen
 * @property {{reason: string, error: string, busy: boolean}} pairing
 * @property {Profile | null} profile the last known look of the business (device.js keeps it)
 * @property {string} locale the language the customer chose
 * @property {{error: string, starting: boolean}} attract
 * @property {string | null} sessionId the customer's session, null between customers
 * @property {string | null} pollUrl where its status is read (the start's poll_url)
 * @property {StatusBody | null} status the session's last status body
 * @property {import("./cart.js").Order | null} order the order as the server last said it
 * @property {Payment | null} payment the payment step, while one is open
 * @property {Thanks | null} thanks the thank-you screen of the last paid session (receipt.js)
 * @property {import("./receipt.js").ReceiptMail} receiptMail "Email me the receipt" on the thank-you screen
 * @property {import("./receipt-print.js").ReceiptPrint} receiptPrint "Print receipt" on the thank-you screen (receipt-print.js)
 * @property {{reason: string, title: string, message: string} | null} ended
 * @property {{idle: boolean, state: string, detail: {error?: unknown, remote?: {audio: boolean, video: boolean}}}} video the call's state (views.js says it in words)
 * @property {boolean | null} live the kiosk channel is subscribed (else the session polls); null before the first try
 * @property {{offline: boolean, retryIn: number | null}} network
 * @property {{open: boolean, left: number}} stillThere
 * @property {{open: boolean, left: number}} returning the warning before the thank-you or ended screen goes back to the start
 * @property {import("./access.js").Access} access accessible mode, large text, high contrast (access.js)
 * @property {boolean} leaving "I'm done, leave" with a cart: the customer is asked to confirm
 * @property {{body: import("./menu.js").MenuBody | null, error: boolean}} menu GET /api/public/menu in the customer's language, while an agent serves
 * @property {boolean} aloneOffered the waiting screen offers to order alone (self-service.js offersSelfService)
 * @property {import("./self-service.js").Alone} alone the customer orders alone while waiting, before an agent answers
 * @property {string | null} shownItem the menu item the agent showed (MenuItemShown), open large until closed
 * @property {{itemId: string, told: boolean} | null} pointed the item the customer last tapped; `told` once the agent heard
 * @property {import("./dining.js").Dining} dining eat in or take away, asked on the payment step (dining.js)
 * @property {import("../common/chat-log.js").Chat} chat the session's text chat with the agent (chat.js)
 */

/** @type {KioskState} */
export const INITIAL = {
  screen: "loading",
  pairing: { reason: "", error: "", busy: false },
  profile: null,
  locale: "en-US",
  attract: { error: "", starting: false },
  sessionId: null,
  pollUrl: null,
  status: null,
  order: null,
  payment: null,
  thanks: null,
  receiptMail: NO_MAIL,
  receiptPrint: NO_PRINT,
  ended: null,
  video: { idle: true, state: "idle", detail: {} },
  live: null,
  network: { offline: false, retryIn: null },
  stillThere: { open: false, left: 0 },
  returning: { open: false, left: 0 },
  access: ACCESS_OFF,
  leaving: false,
  menu: { body: null, error: false },
  aloneOffered: false,
  alone: NOT_ALONE,
  shownItem: null,
  pointed: null,
  dining: { sessionId: null, ask: false, choice: null, saving: false, error: "" },
  chat: NO_CHAT,
};

/** @returns {import("../common/store.js").Store<KioskState>} */
export const createKioskStore = () => createStore(INITIAL);

/** What a session leaves behind when it closes: the session parts back to their start. */
export const NO_SESSION = Object.freeze({
  sessionId: null,
  pollUrl: null,
  status: null,
  order: null,
  payment: null,
  leaving: false,
  menu: { body: null, error: false },
  aloneOffered: false,
  alone: NOT_ALONE,
  shownItem: null,
  pointed: null,
});
