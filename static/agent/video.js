// The video pane: the provider's web SDK (agora-rtc-sdk-ng, vendored, loaded on first use) joins
// the channel named after the session with a publisher token from the agent API, and the token is
// refreshed before it expires. When the provider cannot be reached the pane says so with the
// reason and the rest of the session carries on; it tries again every RETRY_SECONDS.
import { get, post } from "./api.js";
import { $ } from "./ui.js";

const RETRY_SECONDS = 30;
const JOIN_TIMEOUT_SECONDS = 12; // the provider answers a join in a few seconds
let sdkLoading = null;

function loadSdk() {
  if (window.AgoraRTC) return Promise.resolve(window.AgoraRTC);
  if (!sdkLoading) {
    sdkLoading = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = document.body.dataset.videoSdk;
      script.onload = () => (window.AgoraRTC ? resolve(window.AgoraRTC) : reject(new Error("the SDK did not load")));
      script.onerror = () => reject(new Error("the video SDK file could not be loaded"));
      document.head.append(script);
    }).then((AgoraRTC) => {
      // The SDK logs to the console and uploads its logs by default; neither is wanted here
      // (its own connection failures are shown in the pane instead).
      AgoraRTC.setLogLevel(4);
      AgoraRTC.disableLogUpload();
      return AgoraRTC;
    });
    sdkLoading.catch(() => (sdkLoading = null));
  }
  return sdkLoading;
}

function withTimeout(promise, seconds, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = window.setTimeout(() => reject(new Error(`${what} took longer than ${seconds} s`)), seconds * 1000);
  });
  return Promise.race([promise, timeout]).finally(() => window.clearTimeout(timer));
}

export class VideoPane {
  constructor() {
    this.pane = $("#video");
    this.channel = null;
    this.token = null;
    this.client = null;
    this.tracks = [];
    this.refreshTimer = null;
    this.retryTimer = null;
    this.micButton = $("#toggle-mic");
    this.cameraButton = $("#toggle-camera");
    this.micButton.addEventListener("click", () => this.toggle(0, this.micButton, "Unmute microphone", "Mute microphone"));
    this.cameraButton.addEventListener("click", () =>
      this.toggle(1, this.cameraButton, "Turn camera on", "Turn camera off"),
    );
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
      this.token = await get(`/api/video/token?channel=${encodeURIComponent(channel)}&role=publisher`);
    } catch (error) {
      this.setState("unavailable", `Video unavailable: ${error.message}`);
      return;
    }
    this.scheduleRefresh();
    this.join();
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
      const token = await post("/api/video/token/refresh", { channel, role: "publisher" });
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
      this.micButton.disabled = this.cameraButton.disabled = false;
      this.setState("connected", "Video connected");
    } catch (error) {
      if (channel !== this.channel) return;
      const reason = (error && (error.message || error.code)) || "unknown error";
      this.setState("unavailable", `Video unavailable: ${reason}. The rest of the session works; retrying in ${RETRY_SECONDS} s.`);
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
      this.setState("unavailable", `Video unavailable: ${error.message || error}`);
    }
  }

  async toggle(index, button, offLabel, onLabel) {
    const track = this.tracks[index];
    if (!track) return;
    const enabled = !track.enabled;
    await track.setEnabled(enabled);
    button.setAttribute("aria-pressed", enabled ? "false" : "true");
    button.textContent = enabled ? onLabel : offLabel;
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
    this.micButton.disabled = this.cameraButton.disabled = true;
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
