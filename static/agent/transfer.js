// The Transfer control's actions: read who is free and any transfer waiting for an answer (GET
// /api/sessions/{id}/transfer), offer the session (POST), take it back (DELETE), and hear how it ended (TransferLapsed from the feed, or the offers' time running
// out here: the server's tick tells within a second or two). The hand-over itself is heard by
// main.js (SessionTransferred), which closes the session. Everything goes into the store's
// `transfer`; views.js draws it.
import { interpolate, pgettext } from "../common/gettext.js";
import { asFailure } from "../common/report.js";
import { byId } from "../common/ui.js";
import { del, get, post } from "./api.js";
import {
  cancelRefusal,
  cancelledWords,
  lapsedWords,
  NO_TRANSFER,
  pendingFromServer,
  pendingLeft,
  transferBody,
  transferRefusal,
} from "./transfer-state.js";

const LAPSE_GRACE_MS = 3000; // the server closes lapsed offers on its tick (about a second)

/**
 * @param {import("../common/store.js").Store<import("./state.js").AgentState>} store
 * @param {{announce: (text: string) => void}} hooks
 */
export function createTransferActions(store, { announce }) {
  const state = store.get;
  /** @param {Partial<import("./transfer-state.js").Transfer>} change */
  const setTransfer = (change) => store.set(({ transfer }) => ({ transfer: { ...transfer, ...change } }));

  /** Who is free, and the transfer waiting for an answer: the server's word, so a reload finds it again. */
  async function load() {
    const session = state().session;
    if (!session || session.status !== "active") return;
    const askedAt = Date.now();
    try {
      const body = await get(`/api/sessions/${session.id}/transfer`);
      const now = state().session;
      if (!now || now.id !== session.id) return;
      const local = state().transfer.pending;
      // A transfer sent while this read was on its way is newer than the read's "none".
      const pending = pendingFromServer(body.pending, Date.now()) || (local && local.startedAt > askedAt ? local : null);
      setTransfer({ candidates: { agents: body.agents, languages: body.languages }, pending, error: "" });
    } catch (caught) {
      const error = asFailure(caught);
      setTransfer({ error: transferRefusal(error) });
    }
  }

  async function send() {
    const session = state().session;
    const body = transferBody(byId("transfer-to", HTMLSelectElement).value);
    if (!session) return;
    if (!body) return setTransfer({ error: pgettext("agent", "Choose a colleague or a language first.") });
    setTransfer({ error: "", notice: "" });
    try {
      const answer = await post(`/api/sessions/${session.id}/transfer`, body);
      const names = answer.offers.map((/** @type {{agent: {name: string}}} */ offer) => offer.agent.name);
      setTransfer({ pending: { names, seconds: answer.offer_seconds, startedAt: Date.now() } });
      announce(interpolate(pgettext("agent", "Transfer offered to %(names)s."), { names: names.join(", ") }));
    } catch (caught) {
      const error = asFailure(caught);
      setTransfer({ error: transferRefusal(error) });
      load();
    }
  }

  /** Cancel: the offers are withdrawn and the customer stays here (unless a colleague was quicker). */
  async function cancel() {
    const session = state().session;
    if (!session || !state().transfer.pending) return;
    setTransfer({ error: "" });
    try {
      await del(`/api/sessions/${session.id}/transfer`);
      setTransfer({ pending: null, notice: cancelledWords() });
      announce(cancelledWords());
    } catch (caught) {
      const error = asFailure(caught);
      setTransfer({ pending: null, error: cancelRefusal(error) });
      // Already accepted: SessionTransferred (or the session's poll) closes the session here.
      if (error.code === "TRANSFER_ALREADY_ACCEPTED") return;
    }
    load();
  }

  /** TransferLapsed: the session stays here. @param {{session_id: string, reason: string}} message */
  function lapsed(message) {
    const session = state().session;
    if (!session || session.id !== message.session_id || !state().transfer.pending) return;
    const notice = lapsedWords(message.reason);
    setTransfer({ pending: null, notice });
    announce(notice);
    load();
  }

  /** Each second: a transfer whose offers ran out long enough ago has lapsed (no socket to say so). @param {number} now */
  function tick(now) {
    const pending = state().transfer.pending;
    if (pending && pendingLeft(pending, now - LAPSE_GRACE_MS) === 0) {
      const session = state().session;
      lapsed({ session_id: session ? session.id : "", reason: "no_answer" });
    }
  }

  const reset = () => store.set({ transfer: NO_TRANSFER });

  byId("transfer-form").addEventListener("submit", (event) => {
    event.preventDefault();
    send();
  });
  byId("transfer-refresh").addEventListener("click", load);
  byId("transfer-cancel").addEventListener("click", cancel);
  byId("transfer-to").addEventListener("change", () => setTransfer({ error: "" }));

  return { load, lapsed, tick, reset };
}
