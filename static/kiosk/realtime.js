// The kiosk's real-time link: pusher-js (the project's vendored copy, loaded from the API server)
// on private-kiosk.{id} for its session's events, and on its owner's presence channel so the
// owner's dashboard sees it live. Channel names and the app key come from
// GET /api/public/broadcasting/channels; subscriptions are signed by the kiosk auth endpoint with
// the device headers. `onLive(true|false)` tells the session whether it must poll instead.
import { deviceAuthorization } from "../common/channel-auth.js";
import { logFailure } from "../common/report.js";
import { config, get, url } from "./api.js";
import { device } from "./device.js";
import { loadScript, PUSHER_JS, staticUrl } from "./vendor.js";

const SESSION_EVENTS = [
  "SessionStatusChanged",
  "OrderUpdated",
  "PaymentRequested",
  "PaymentFailed",
  "PaymentCancelled",
  "PaymentSucceeded",
  "ReaderRefused",
  "QueueUpdated",
  "MenuItemShown",
  "CartReadAloud",
];

export class KioskRealtime {
  /**
   * @param {object} handlers
   * @param {(name: string, data: PusherEventData) => void} handlers.onEvent a session event on the kiosk channel
   * @param {(live: boolean, reconnected: boolean) => void} handlers.onLive the channel is subscribed, or not
   */
  constructor({ onEvent, onLive }) {
    this.onEvent = onEvent;
    this.onLive = onLive;
    /** @type {PusherClient | null} */
    this.pusher = null;
    /** @type {number | undefined} */
    this.retryTimer = undefined;
    this.live = false;
    this.everLive = false;
  }

  async start() {
    this.stop();
    let channels, Pusher;
    try {
      channels = await get("/api/public/broadcasting/channels");
      Pusher = await loadScript(staticUrl(PUSHER_JS), "Pusher");
    } catch (error) {
      logFailure("starting the real-time link (polling meanwhile)", error);
      this.setLive(false);
      this.retryTimer = window.setTimeout(() => this.start(), 15_000); // polling covers meanwhile
      return;
    }
    const api = new URL(config.apiBase);
    const tls = config.forceTLS !== undefined ? String(config.forceTLS) === "true" : api.protocol === "https:";
    const port = Number(config.wsPort) || Number(api.port) || undefined;
    const pusher = new Pusher(config.realtimeKey || channels.app_key, {
      cluster: "local", // pusher-js insists on one; wsHost decides where it connects
      wsHost: config.wsHost || api.hostname,
      wsPort: port || 80,
      wssPort: port || 443,
      forceTLS: tls,
      enabledTransports: ["ws", "wss"],
      disableStats: true,
      channelAuthorization: deviceAuthorization(url("/api/public/broadcasting/auth"), () => device.headers()),
    });
    this.pusher = pusher;
    this.setLive(false); // until the kiosk channel is subscribed (the first state change is already past)
    pusher.connection.bind("state_change", ({ current }) => {
      if (current !== "connected") this.setLive(false);
    });
    const kiosk = pusher.subscribe(channels.kiosk_channel);
    kiosk.bind("pusher:subscription_succeeded", () => this.setLive(true));
    kiosk.bind("pusher:subscription_error", () => this.setLive(false));
    SESSION_EVENTS.forEach((name) => kiosk.bind(name, (data) => this.onEvent(name, data)));
    pusher.subscribe(channels.owner_channel); // presence: being a member is the point
  }

  /** @param {boolean} live */
  setLive(live) {
    const reconnected = live && this.everLive && !this.live;
    this.live = live;
    if (live) this.everLive = true;
    this.onLive(live, reconnected);
  }

  stop() {
    window.clearTimeout(this.retryTimer);
    if (this.pusher) this.pusher.disconnect();
    this.pusher = null;
    this.live = false;
    this.everLive = false;
  }
}
