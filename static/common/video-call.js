// One video call for both apps: the provider's web SDK (agora-rtc-sdk-ng, the project's vendored
// copy, loaded on first use) joins the channel named after the session with a publisher token,
// refreshed before it expires. When the provider cannot be reached the call reports
// "unavailable" with the error and tries again every RETRY_SECONDS; the app words every state
// through its onState callback (the rest of its screen carries on).
import { logFailure, reasonOf } from "./report.js";
import { loadScript } from "./scripts.js";

export const RETRY_SECONDS = 30;
const JOIN_TIMEOUT_SECONDS = 12; // the provider answers a join in a few seconds

async function loadSdk(src) {
  const AgoraRTC = await loadScript(src, "AgoraRTC", "the video SDK file");
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

// The words for a failure: the error's message, else its code.
export { reasonOf };

export class VideoCall {
  // pane: gets data-state and data-refreshed-at; localVideo, remoteVideo: where tracks play;
  // sdkUrl: the vendored SDK; get, post: the app's API calls; tokenUrl(channel) and refreshUrl:
  // its token endpoints; onState(state, {error, stage, retrySeconds}) with state idle,
  // connecting, connected or unavailable (stage token, join or remote); onMedia(live): the
  // local tracks are published (true) or gone (false).
  /**
   * @param {object} options
   * @param {HTMLElement} options.pane
   * @param {HTMLElement} options.localVideo
   * @param {HTMLElement} options.remoteVideo
   * @param {string} options.sdkUrl
   * @param {(path: string) => Promise<any>} options.get
   * @param {(path: string, body?: object) => Promise<any>} options.post
   * @param {(channel: string) => string} options.tokenUrl
   * @param {string} options.refreshUrl
   * @param {(state: "idle" | "connecting" | "connected" | "unavailable", detail: {error?: unknown, stage?: string, retrySeconds: number}) => void} options.onState
   * @param {(live: boolean) => void} [options.onMedia]
   */
  constructor({ pane, localVideo, remoteVideo, sdkUrl, get, post, tokenUrl, refreshUrl, onState, onMedia }) {
    this.pane = pane;
    this.localVideo = localVideo;
    this.remoteVideo = remoteVideo;
    this.sdkUrl = sdkUrl;
    this.get = get;
    this.post = post;
    this.tokenUrl = tokenUrl;
    this.refreshUrl = refreshUrl;
    this.onState = onState;
    this.onMedia = onMedia || (() => {});
    this.channel = null;
    this.token = null;
    this.client = null;
    this.tracks = [];
    this.refreshTimer = null;
    this.retryTimer = null;
  }

  setState(state, detail = {}) {
    this.pane.dataset.state = state;
    this.onState(state, { retrySeconds: RETRY_SECONDS, ...detail });
  }

  async start(channel) {
    if (this.channel === channel) return;
    await this.stop();
    this.channel = channel;
    this.setState("connecting");
    try {
      this.token = await this.get(this.tokenUrl(channel));
    } catch (error) {
      if (channel === this.channel) this.setState("unavailable", { error, stage: "token" });
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
      const token = await this.post(this.refreshUrl, { channel, role: "publisher" });
      if (channel !== this.channel) return;
      this.token = token;
      this.pane.dataset.refreshedAt = new Date().toISOString();
      if (this.client && this.client.connectionState === "CONNECTED") await this.client.renewToken(token.token);
      this.scheduleRefresh();
    } catch (error) {
      logFailure("refreshing the video token (trying again in 5 s)", error);
      if (channel === this.channel && error.status !== 401) this.refreshTimer = window.setTimeout(() => this.refresh(), 5000);
    }
  }

  async join() {
    const channel = this.channel;
    try {
      const AgoraRTC = await loadSdk(this.sdkUrl);
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
      this.tracks[1].play(this.localVideo);
      await this.client.publish(this.tracks);
      this.onMedia(true);
      this.setState("connected");
    } catch (error) {
      if (channel !== this.channel) return;
      this.setState("unavailable", { error, stage: "join" });
      await this.leave();
      this.retryTimer = window.setTimeout(() => this.join(), RETRY_SECONDS * 1000);
    }
  }

  async showRemote(user, mediaType) {
    try {
      await this.client.subscribe(user, mediaType);
      if (mediaType === "video") user.videoTrack.play(this.remoteVideo);
      if (mediaType === "audio") user.audioTrack.play();
    } catch (error) {
      this.setState("unavailable", { error, stage: "remote" });
    }
  }

  async leave() {
    this.tracks.forEach((track) => {
      try {
        track.close();
      } catch (error) {
        logFailure("closing a camera or microphone track", error);
      }
    });
    this.tracks = [];
    this.onMedia(false);
    const client = this.client;
    this.client = null;
    if (client) {
      try {
        await client.leave();
      } catch (error) {
        logFailure("leaving the video channel", error);
      }
    }
  }

  async stop() {
    this.channel = null;
    window.clearTimeout(this.refreshTimer);
    window.clearTimeout(this.retryTimer);
    await this.leave();
    this.setState("idle");
  }
}
