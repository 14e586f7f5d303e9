// A screen's live link: its private channel over pusher-js (the copy the owner panel vendors),
// with polling while the socket is not connected and subscribed, and one catch-up poll each time
// the channel (re)subscribes, so a message missed while the socket was down is never lost.
import { channelAuthorization } from "./channel-auth.js";
import { logFailure } from "./report.js";

export class DisplayFeed {
  /**
   * @param {object} options
   * @param {import("./display-api.js").DisplayApi} options.api
   * @param {import("./display-api.js").DisplayMe} options.me
   * @param {string} options.channel
   * @param {Record<string, (data: any) => void>} options.events what each message does
   * @param {(askedAt: number) => Promise<void>} options.poll reads the whole state once
   * @param {(state: "live" | "polling") => void} options.onState
   */
  constructor({ api, me, channel, events, poll, onState }) {
    this.api = api;
    this.me = me;
    this.channel = channel;
    this.events = events;
    this.poll = poll;
    this.onState = onState;
    this.live = false;
    this.timer = null;
    this.polling = false;
    /** @type {PusherClient | null} */
    this.pusher = null;
  }

  start() {
    this.connect();
    this.pollOnce();
    this.updatePolling();
  }

  connect() {
    if (!window.Pusher) return this.setLive(false);
    const port = Number(window.location.port) || undefined;
    let pusher;
    try {
      pusher = new window.Pusher(this.me.app_key, {
        cluster: "local", // pusher-js insists on one; wsHost decides where it connects
        wsHost: window.location.hostname,
        wsPort: port || 80,
        wssPort: port || 443,
        forceTLS: window.location.protocol === "https:",
        enabledTransports: ["ws", "wss"],
        disableStats: true,
        // A screen's token or, signed in, the session cookie with Django's CSRF header.
        channelAuthorization: channelAuthorization({
          endpoint: this.api.url("broadcasting/auth"),
          headers: () => this.api.headers("POST"),
          credentials: "same-origin",
          what: "signing the live link's subscription",
        }),
      });
    } catch (error) {
      logFailure("starting the live link (polling meanwhile)", error);
      return this.setLive(false);
    }
    this.pusher = pusher;
    pusher.connection.bind("state_change", ({ current }) => {
      if (current !== "connected") this.setLive(false);
    });
    // pusher-js starts connecting inside its constructor: until the channel is subscribed the
    // screen polls (a blocked socket may keep "connecting" without a state change for a while).
    this.setLive(false);
    const channel = pusher.subscribe(this.channel);
    channel.bind("pusher:subscription_succeeded", () => {
      this.setLive(true);
      this.pollOnce(); // what happened while the socket was down
    });
    channel.bind("pusher:subscription_error", () => this.setLive(false));
    for (const [name, handle] of Object.entries(this.events)) channel.bind(name, handle);
  }

  /** @param {boolean} live */
  setLive(live) {
    this.live = live;
    this.onState(live ? "live" : "polling");
    this.updatePolling();
  }

  updatePolling() {
    if (this.live && this.timer) {
      window.clearInterval(this.timer);
      this.timer = null;
    } else if (!this.live && !this.timer) {
      this.timer = window.setInterval(() => this.pollOnce(), this.me.settings.poll_seconds * 1000);
    }
  }

  // One poll at a time: a slow answer is not overtaken by the next tick's.
  async pollOnce() {
    if (this.polling) return;
    this.polling = true;
    try {
      await this.poll(Date.now());
    } finally {
      this.polling = false;
    }
  }
}
