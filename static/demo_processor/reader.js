// The demo processor's reader page: what a simulated card reader shows (the amount while it holds
// a payment, then approved or declined) and a button per demo card. The page asks the demo
// processor for the reader's state every second; the state lives in one store and the page is
// drawn from it. The words are the page's own (its template, from the catalogue): this script
// only shows and hides them and fills in the amount and the processor's message.
import { createStore } from "../common/store.js";

const POLL_MS = 1000;

/**
 * @typedef {{status: string, payment_intent: string, amount: number, currency: string,
 *   failure_code: string | null, failure_message: string | null}} ShownAction
 * @typedef {{id: string, label: string, status: string, action: ShownAction | null}} ReaderState
 * @typedef {{status: string, payment_intent: string, message: string}} Outcome
 * @typedef {{reader: ReaderState, outcome: Outcome | null, busy: boolean, problem: string,
 *   unreachable: boolean}} PageState
 */

const root = /** @type {HTMLElement} */ (document.getElementById("reader"));
const stateUrl = root.dataset.stateUrl || "";
const presentUrl = root.dataset.presentUrl || "";
const initial = /** @type {ReaderState} */ (
  JSON.parse((document.getElementById("reader-state") || { textContent: "null" }).textContent || "null")
);

/** @type {import("../common/store.js").Store<PageState>} */
const store = createStore(
  /** @type {PageState} */ ({ reader: initial, outcome: null, busy: false, problem: "", unreachable: false }),
);

/**
 * @param {number} amount in the currency's smallest unit
 * @param {string} currency
 */
function money(amount, currency) {
  const format = new Intl.NumberFormat(document.documentElement.lang || undefined, {
    style: "currency",
    currency: currency.toUpperCase(),
  });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
}

/** @param {ReaderState} reader */
function screenOf(reader) {
  if (reader.status !== "online") return "offline";
  if (!reader.action) return "idle";
  return { in_progress: "holding", succeeded: "approved", failed: "declined" }[reader.action.status] || "idle";
}

/** @param {Readonly<PageState>} state */
function draw(state) {
  const { reader, outcome } = state;
  const screen = screenOf(reader);
  const status = /** @type {HTMLElement} */ (document.getElementById("reader-status"));
  status.classList.toggle("online", reader.status === "online");
  for (const element of status.querySelectorAll("[data-status]")) {
    /** @type {HTMLElement} */ (element).hidden = /** @type {HTMLElement} */ (element).dataset.status !== reader.status;
  }
  for (const element of root.querySelectorAll("[data-screen]")) {
    /** @type {HTMLElement} */ (element).hidden = /** @type {HTMLElement} */ (element).dataset.screen !== screen;
  }
  const amount = reader.action ? money(reader.action.amount, reader.action.currency) : "";
  for (const element of root.querySelectorAll("[data-amount]")) element.textContent = amount;
  const failure = root.querySelector("[data-failure]");
  if (failure) failure.textContent = (reader.action && reader.action.failure_message) || "";

  const outcomeLine = /** @type {HTMLElement} */ (document.getElementById("reader-outcome"));
  outcomeLine.hidden = outcome === null;
  for (const element of outcomeLine.querySelectorAll("[data-outcome]")) {
    /** @type {HTMLElement} */ (element).hidden = !outcome || /** @type {HTMLElement} */ (element).dataset.outcome !== outcome.status;
  }
  const message = outcomeLine.querySelector("[data-outcome-message]");
  if (message) message.textContent = outcome ? outcome.message : "";

  const problem = /** @type {HTMLElement} */ (document.getElementById("reader-problem"));
  problem.textContent = state.problem;
  problem.hidden = !state.problem;
  /** @type {HTMLElement} */ (document.getElementById("reader-unreachable")).hidden = !state.unreachable;

  const canPresent = screen === "holding" && !state.busy;
  for (const button of root.querySelectorAll("button[data-card]")) {
    /** @type {HTMLButtonElement} */ (button).disabled = !canPresent;
  }
}

/** @param {ReaderState} reader */
function readerArrived(reader) {
  store.set((state) => {
    const held = reader.action ? reader.action.payment_intent : "";
    // A new payment on the reader: the last card's outcome was for the one before.
    const outcome = state.outcome && state.outcome.payment_intent === held ? state.outcome : null;
    return { reader, outcome, unreachable: false };
  });
}

async function poll() {
  try {
    const response = await fetch(stateUrl, { headers: { Accept: "application/json" }, cache: "no-store" });
    if (response.ok) readerArrived(await response.json());
    else store.set({ unreachable: true });
  } catch (networkError) {
    console.warn("reader state not read; trying again", networkError);
    store.set({ unreachable: true });
  } finally {
    window.setTimeout(poll, POLL_MS);
  }
}

/** @param {SubmitEvent} event */
async function present(event) {
  event.preventDefault();
  const form = /** @type {HTMLFormElement} */ (event.currentTarget);
  const held = store.get().reader.action;
  store.set({ busy: true, problem: "" });
  try {
    const response = await fetch(presentUrl, {
      method: "POST",
      headers: { Accept: "application/json" },
      body: new FormData(form),
    });
    const body = await response.json();
    if (!response.ok) {
      store.set({ problem: (body && body.error && body.error.message) || `HTTP ${response.status}` });
      return;
    }
    const action = body.action || {};
    store.set({
      outcome: {
        status: action.status === "succeeded" ? "approved" : "declined",
        payment_intent: held ? held.payment_intent : "",
        message: action.failure_message || "",
      },
    });
  } catch (networkError) {
    console.warn("card not presented", networkError);
    store.set({ unreachable: true });
  } finally {
    store.set({ busy: false });
  }
}

for (const form of root.querySelectorAll("form.card-form")) {
  form.addEventListener("submit", (event) => present(/** @type {SubmitEvent} */ (event)));
}
store.subscribe(draw);
draw(store.get());
window.setTimeout(poll, POLL_MS);
