// The kiosk's video: the provider's web SDK (agora-rtc-sdk-ng, the project's vendored copy,
// loaded from the API server on first use) joins the channel named after the session with a
// publisher token from the kiosk API, refreshed before it expires. When the provider cannot be
// reached the pane says "Video unavailable" and why, the order carries on, and it retries.
import { get, post } from "./api.js";
import { $ } from "./ui.js";
import { AGORA_SDK, loadScript, staticUrl } from "./vendor.js";

const RETRY_SECONDS = 30;
const JOIN_TIMEOUT_SECONDS = 12; // the provider answers a join in a few seconds

async function loadSdk() {
  const AgoraRTC = await loadScript(staticUrl(AGORA_SDK), "AgoraRTC");
  AgoraRTC.setLogLevel(4); // its own failures are shown on screen, not in the console
  AgoraRTC.disableLogUpload();
  return AgoraRTC;
}

function withTimeout(promise, seconds, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = window.setTimeout(() => reject(new Error(`${what} took longer than ${seconds} s`)), seconds * 1000);
  });
  return Promise.race([promise, timeout]).finally(() => window.clearTimeout(timer));
}

export class KioskVideo {
  constructor() {
    this.pane = $("#video");
    this.channel = null;
    this.token = null;
    this.client = null;
    this.tracks = [];
  }

  setState(state, text) {
    this.pane.dataset.state = state;
    $("#video-state").textContent = text;
  }

  async start(channel) {
    if (this.channel === channel) return;
    await this.stop();
    this.channel = channel;
    this.setState("connecting", "Connecting video…");
    try {
      this.token = await get(`/api/public/video/token?channel=${encodeURIComponent(channel)}&role=publisher`);
    } catch (error) {
      if (channel === this.channel) this.unavailable(error);
      return;
    }
    this.scheduleRefresh();
    this.join();
  }

  unavailable(error) {
    const reason = (error && (error.message || error.code)) || "unknown error";
    this.setState("unavailable", `Video unavailable: ${reason}. Your order carries on.`);
  }

  scheduleRefresh() {
    window.clearTimeout(this.refreshTimer);
    const left = new Date(this.token.expires_at).getTime() - Date.now();
    const margin = Math.min(60_000, left / 4); // well before expiry, whatever the lifetime
    this.refreshTimer = window.setTimeout(() => this.refresh(), Math.max(1000, left - margin));
  }

  async refresh() {
    const channel = this.channel;
    if (!channel) return;
    try {
      const token = await post("/api/public/video/token/refresh", { channel, role: "publisher" });
      if (channel !== this.channel) return;
      this.token = token;
      this.pane.dataset.refreshedAt = new Date().toISOString();
      if (this.client && this.client.connectionState === "CONNECTED") await this.client.renewToken(token.token);
      this.scheduleRefresh();
    } catch (error) {
      if (channel === this.channel && error.status !== 401) this.refreshTimer = window.setTimeout(() => this.refresh(), 5000);
    }
  }

  async join() {
    const channel = this.channel;
    try {
      const AgoraRTC = await loadSdk();
      if (channel !== this.channel) return;
      this.client = AgoraRTC.createClient({ mode: "rtc", codec: "vp8" });
      this.client.on("token-privilege-will-expire", () => this.refresh());
      this.client.on("user-published", (user, mediaType) => this.showRemote(user, mediaType));
      await withTimeout(
        this.client.join(this.token.app_id, channel, this.token.token, this.token.uid),
        JOIN_TIMEOUT_SECONDS,
        "reaching the video provider",
      );
      this.tracks = await AgoraRTC.createMicrophoneAndCameraTracks();
      this.tracks[1].play($("#local-video"));
      await this.client.publish(this.tracks);
      this.setState("connected", "Video connected");
    } catch (error) {
      if (channel !== this.channel) return;
      this.unavailable(error);
      await this.leave();
      this.retryTimer = window.setTimeout(() => this.join(), RETRY_SECONDS * 1000);
    }
  }

  async showRemote(user, mediaType) {
    try {
      await this.client.subscribe(user, mediaType);
      if (mediaType === "video") user.videoTrack.play($("#remote-video"));
      if (mediaType === "audio") user.audioTrack.play();
    } catch (error) {
      this.unavailable(error);
    }
  }

  async leave() {
    this.tracks.forEach((track) => {
      try {
        track.close();
      } catch (ignored) {
        /* already closed */
      }
    });
    this.tracks = [];
    const client = this.client;
    this.client = null;
    if (client) {
      try {
        await client.leave();
      } catch (ignored) {
        /* never joined */
      }
    }
  }

  async stop() {
    this.channel = null;
    window.clearTimeout(this.refreshTimer);
    window.clearTimeout(this.retryTimer);
    await this.leave();
    this.setState("idle", "Video not started");
  }
}
