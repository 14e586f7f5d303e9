// The agent's private channel (pusher-js, the copy the owner panel vendors) with a polling
// fallback: while the socket is not connected and subscribed, GET /api/sessions/incoming runs
// every `pollSeconds` (the server's AGENT_FALLBACK_POLL_SECONDS) with `onPoll`, which reads what
// the channel would have told (the agent's status, the sessions it holds), and stops as soon as
// the channel is live again.
import { newestAnswer } from "../common/http.js";
import { get, xsrfHeaders } from "./api.js";
import { sessionAuthorization } from "../common/channel-auth.js";
import { asFailure, logFailure } from "../common/report.js";

/** @typedef {import("./queue-state.js").Incoming} Incoming */

export class IncomingFeed {
  /**
   * @param {object} options
   * @param {AgentConfig} options.config
   * @param {string} options.agentId
   * @param {(sessions: Incoming[], askedAt: number) => void} options.onSnapshot the queue as polled
   * @param {(session: Incoming) => void} options.onIncoming SessionIncoming
   * @param {(sessionId: string, why: string) => void} options.onGone claimed or withdrawn
   * @param {(link: "connected" | "polling", state?: string) => void} options.onState the connection's state when polling
   * @param {(status: {status: string, status_reason?: string, status_message?: string}) => void} options.onStatus AgentStatusChanged
   * @param {(data: {session_id: string, item_id: string, name: string}) => void} [options.onPointed] MenuItemPointed
   * @param {(data: {session_id: string, customer_locale: string}) => void} [options.onLocale] CustomerLocaleChanged
   * @param {(data: {session_id: string, accessible_mode: boolean}) => void} [options.onOfferAccessible] OfferAccessibleModeChanged: a waiting customer's mode, on its offer card
   * @param {(data: import("./transfer-state.js").TransferredMessage) => void} options.onTransferred SessionTransferred
   * @param {(data: {session_id: string, reason: string}) => void} options.onTransferLapsed TransferLapsed
   * @param {(data: any) => void} [options.onSessionUpdated] SessionUpdated: a held session's read ({session, order, payment})
   * @param {(data: import("../common/chat-log.js").ChatMessage) => void} [options.onChatMessage] ChatMessage: a customer wrote on a held session
   * @param {() => Promise<unknown>} [options.onPoll] with each timed poll
   */
  constructor({
    config,
    agentId,
    onSnapshot,
    onIncoming,
    onGone,
    onState,
    onStatus,
    onPointed = (data) => data,
    onLocale = (data) => data,
    onOfferAccessible = (data) => data,
    onTransferred,
    onTransferLapsed,
    onSessionUpdated = (data) => data,
    onChatMessage = (data) => data,
    onPoll = async () => {},
  }) {
    this.config = config;
    this.agentId = agentId;
    this.onSnapshot = onSnapshot;
    this.onIncoming = onIncoming;
    this.onGone = onGone;
    this.onState = onState;
    this.onStatus = onStatus;
    this.onPointed = onPointed;
    this.onLocale = onLocale;
    this.onOfferAccessible = onOfferAccessible;
    this.onTransferred = onTransferred;
    this.onTransferLapsed = onTransferLapsed;
    this.onSessionUpdated = onSessionUpdated;
    this.onChatMessage = onChatMessage;
    this.polls = newestAnswer();
    this.onPoll = onPoll;
    this.live = false;
    /** @type {number | undefined} */
    this.pollTimer = undefined;
    /** @type {PusherClient | null} */
    this.pusher = null;
    this.stopped = false;
    this.timedPollRunning = false;
    this.timedPollDue = false;
    this.lastReconnect = 0;
  }

  start() {
    this.connect();
    this.pollOnce(); // the queue as it is now, whatever the socket does
    this.updatePolling();
  }

  stop() {
    this.stopped = true; // the disconnect below changes state: that must not restart polling
    window.clearInterval(this.pollTimer);
    this.pollTimer = undefined;
    if (this.pusher) this.pusher.disconnect();
    this.pusher = null;
  }

  connect() {
    if (!window.Pusher) {
      this.setLive(false, "unavailable");
      return;
    }
    const port = Number(window.location.port) || undefined;
    try {
      this.pusher = new window.Pusher(this.config.realtimeKey, {
        cluster: "local", // pusher-js insists on one; wsHost decides where it connects
        wsHost: this.config.wsHost || window.location.hostname,
        wsPort: this.config.wsPort || port || 80,
        wssPort: this.config.wsPort || port || 443,
        forceTLS: this.config.forceTLS,
        enabledTransports: ["ws", "wss"],
        disableStats: true,
        // /broadcasting/auth is a mutating agent-API call: it needs the current XSRF cookie value.
        channelAuthorization: sessionAuthorization(this.config.authEndpoint, xsrfHeaders, "signing the live link's subscription"),
      });
    } catch (error) {
      logFailure("starting the live link (polling meanwhile)", error);
      this.setLive(false, "unavailable");
      return;
    }
    this.pusher.connection.bind("state_change", ({ current }) => {
      if (current !== "connected") this.setLive(false, current);
    });
    // pusher-js starts connecting inside its constructor, before the binding above: say now that
    // the queue is being polled, not after its first failure (up to 10 s later, when blocked).
    this.setLive(false, this.pusher.connection.state);
    const channel = this.pusher.subscribe(`private-agent.${this.agentId}`);
    channel.bind("pusher:subscription_succeeded", () => {
      this.setLive(true, "connected");
      this.pollOnce(); // anything that arrived while the socket was down
    });
    channel.bind("pusher:subscription_error", () => this.setLive(false, "unavailable"));
    channel.bind("SessionIncoming", (data) => this.onIncoming(data.session));
    channel.bind("SessionClaimed", (data) => this.onGone(data.session_id, "claimed"));
    channel.bind("SessionWithdrawn", (data) => this.onGone(data.session_id, data.reason || "withdrawn"));
    channel.bind("AgentStatusChanged", (data) => this.onStatus(data));
    channel.bind("MenuItemPointed", (data) => this.onPointed(data));
    channel.bind("CustomerLocaleChanged", (data) => this.onLocale(data));
    channel.bind("OfferAccessibleModeChanged", (data) => this.onOfferAccessible(data));
    channel.bind("SessionTransferred", (data) => this.onTransferred(data));
    channel.bind("TransferLapsed", (data) => this.onTransferLapsed(data));
    channel.bind("SessionUpdated", (data) => this.onSessionUpdated(data));
    channel.bind("ChatMessage", (data) => this.onChatMessage(data));
  }

  /** @param {boolean} live @param {string} [state] the connection's, when not live */
  setLive(live, state) {
    if (this.stopped) return;
    this.live = live;
    this.onState(live ? "connected" : "polling", state);
    this.updatePolling();
  }

  updatePolling() {
    if (this.stopped) return;
    if (this.live && this.pollTimer) {
      window.clearInterval(this.pollTimer);
      this.pollTimer = undefined;
    } else if (!this.live && !this.pollTimer) {
      this.pollTimer = window.setInterval(() => this.timedPoll(), this.config.pollSeconds * 1000);
    }
  }

  // One timed poll at a time: on a slow server a tick that finds the last one still waiting asks
  // again the moment it answers, instead of piling requests up on the server.
  timedPoll() {
    if (this.timedPollRunning) {
      this.timedPollDue = true;
      return;
    }
    this.timedPollRunning = true;
    Promise.all([this.pollOnce(), this.onPoll()]).finally(() => {
      this.timedPollRunning = false;
      const due = this.timedPollDue && !this.live;
      this.timedPollDue = false;
      if (due) this.timedPoll();
    });
  }

  // A poll was answered while the socket is down: the server is back. pusher-js spaces its own
  // tries out (up to a minute), so the header said "Live updates unavailable" long after the
  // server was back; a fresh connection now, at most every `reconnectSeconds`, makes the link
  // live as soon as the server takes it (pusher-js subscribes the channel again on connecting).
  reconnectIfDown() {
    if (this.stopped || this.live || !this.pusher) return;
    const now = Date.now();
    const every = (this.config.reconnectSeconds || 5) * 1000;
    if (this.lastReconnect && now - this.lastReconnect < every) return;
    this.lastReconnect = now;
    if (this.pusher.connection.state === "connected") return; // connected, the subscription on its way
    this.pusher.disconnect();
    this.pusher.connect();
  }

  // Polls may overlap on a slow server and answer out of order: an answer older than one already
  // shown would drop a card that is really waiting (and ring again when the next answer adds it).
  async pollOnce() {
    if (this.stopped) return;
    const newest = this.polls.ask();
    const askedAt = Date.now();
    try {
      const body = await get("/api/sessions/incoming");
      if (this.stopped || !newest()) return;
      this.onSnapshot(body.sessions, askedAt);
      this.reconnectIfDown();
    } catch (error) {
      // A 401 is handled by the sign-in flow; other failures wait for the next round.
      if (asFailure(error).status !== 401) logFailure("polling the queue", error);
    }
  }
}
