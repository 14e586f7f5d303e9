// One video call for both apps, from either provider; the token answer says which. The managed
// provider's web SDK (agora-rtc-sdk-ng, the project's vendored copy, loaded on first use) joins
// the channel named after the session with a publisher token, refreshed before it expires. The
// self-hosted provider (app_id "webrtc") is one peer connection kiosk <-> agent (webrtc-call.js),
// signalled on the session's call channel (call-signal.js), which also carries the chat whatever
// the provider. When the call cannot be made the call reports "unavailable" with the error and
// tries again every RETRY_SECONDS; the app words every state through its onState callback (the
// rest of its screen carries on).
import { CallSignal } from "./call-signal.js";
import { logFailure, reasonOf } from "./report.js";
import { loadScript } from "./scripts.js";
import { PeerCall } from "./webrtc-call.js";

export const RETRY_SECONDS = 30;
export const WEBRTC_APP_ID = "webrtc";
const KIOSK_UID_BASE = 1_000_000_000; // kiosks' uids start here, agents' below (apps/sessions/video_call.py)
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
  // connecting, reconnecting (webrtc: the network dropped, ICE restarting), connected or
  // unavailable (stage token, join or remote); onMedia(live): the local tracks are published
  // (true) or gone (false).
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
   * @param {(state: "idle" | "connecting" | "reconnecting" | "connected" | "unavailable", detail: {error?: unknown, stage?: string, retrySeconds: number, remote?: {audio: boolean, video: boolean}}) => void} options.onState
   * @param {(live: boolean) => void} [options.onMedia]
   * @param {() => Promise<import("./call-signal.js").PusherSetup>} [options.connect] the app's pusher-js
   *   and options for the call channel (signalling and chat)
   * @param {number} [options.iceRestartSeconds] "disconnected" this long restarts ICE (webrtc), unless
   *   the token says (ice_restart_seconds)
   * @param {(event: string, data: any) => void} [options.onChat] ChatMessage, and "joined" on each
   *   (re)subscription of the call channel (time to catch up on missed messages)
   */
  constructor({ pane, localVideo, remoteVideo, sdkUrl, get, post, tokenUrl, refreshUrl, onState, onMedia, connect, onChat, iceRestartSeconds = 3 }) {
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
    this.connect = connect;
    this.iceRestartSeconds = iceRestartSeconds;
    /** @type {{audio: boolean, video: boolean}} the other side's microphone and camera (webrtc tells) */
    this.remote = { audio: true, video: true };
    this.state = "idle";
    this.onChat = onChat || (() => {});
    /** @type {CallSignal | null} */
    this.signal = null;
    /** @type {PeerCall | null} */
    this.peer = null;
    /** @type {any} */ (this.pane).videoCall = this; // for diagnostics: the browser tests read the peer connection's stats
    this.channel = null;
    this.token = null;
    this.client = null;
    this.tracks = [];
    this.refreshTimer = null;
    this.retryTimer = null;
  }

  // The states' detail carries `remote`, the other side's microphone and camera, so the words can
  // say "the agent's microphone is off".
  setState(state, detail = {}) {
    this.state = state;
    this.pane.dataset.state = state;
    this.pane.dataset.remoteAudio = this.remote.audio ? "on" : "off";
    this.pane.dataset.remoteVideo = this.remote.video ? "on" : "off";
    this.onState(state, { retrySeconds: RETRY_SECONDS, remote: this.remote, ...detail });
  }

  /** @param {{audio: boolean, video: boolean}} media */
  remoteMediaChanged(media) {
    this.remote = media;
    this.setState("connected");
  }

  async start(channel) {
    if (this.channel === channel) return;
    await this.stop();
    this.channel = channel;
    this.setState("connecting");
    this.openSignal(channel);
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
      if (this.peer && token.ice_servers) this.peer.renew(token.ice_servers);
      this.scheduleRefresh();
    } catch (error) {
      logFailure("refreshing the video token (trying again in 5 s)", error);
      if (channel === this.channel && error.status !== 401) this.refreshTimer = window.setTimeout(() => this.refresh(), 5000);
    }
  }

  // The call channel, whatever the provider: the chat needs it too.
  async openSignal(channel) {
    if (!this.connect) return;
    let setup;
    try {
      setup = await this.connect();
    } catch (error) {
      logFailure("opening the call channel (no chat or self-hosted video meanwhile)", error);
      return;
    }
    if (channel !== this.channel) return;
    this.signal = new CallSignal({
      setup,
      channel: `private-call.${channel}`,
      onEvent: (event, data) => (event === "ChatMessage" ? this.onChat(event, data) : this.peer && this.peer.receive(event, data)),
      onJoined: () => {
        this.onChat("joined", null);
        if (this.peer) this.peer.joined();
      },
      // The kiosk stays on a call whoever the agent; an agent only while it is the one named.
      stillMember: (change) => !this.token || this.token.uid >= KIOSK_UID_BASE || String(this.token.uid) === change.agent_id,
      onRefused: (error) => {
        logFailure("joining the call channel", error);
        // No longer a member (the session went to another agent, or ended): this call is over.
        if (this.peer && channel === this.channel) this.peer.onHangup();
      },
    });
  }

  async join() {
    if (this.token.app_id === WEBRTC_APP_ID) return this.joinPeer();
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

  async joinPeer() {
    const channel = this.channel;
    const peer = new PeerCall({
      token: this.token,
      signal: { send: (event, data) => !!this.signal && this.signal.send(event, data) },
      localVideo: this.localVideo,
      remoteVideo: this.remoteVideo,
      offerer: this.token.uid < KIOSK_UID_BASE,
      restartSeconds: this.iceRestartSeconds,
      onState: (state) => channel === this.channel && this.setState(state),
      onRemoteMedia: (media) => this.remoteMediaChanged(media),
    });
    this.peer = peer;
    try {
      await peer.start();
      if (channel !== this.channel) return peer.close();
      this.onMedia(true);
      if (!this.signal) throw new Error("the call channel cannot be reached");
    } catch (error) {
      if (channel !== this.channel) return;
      this.setState("unavailable", { error, stage: "join" });
      await this.leave();
      this.retryTimer = window.setTimeout(() => this.join(), RETRY_SECONDS * 1000);
    }
  }

  /** Microphone ("audio") or camera ("video") on or off, whichever provider. @param {"audio" | "video"} kind @param {boolean} enabled */
  async setEnabled(kind, enabled) {
    if (this.peer) return this.peer.setEnabled(kind, enabled);
    const track = this.tracks[kind === "audio" ? 0 : 1];
    if (track) await track.setEnabled(enabled);
  }

  /** @param {"audio" | "video"} kind */
  isEnabled(kind) {
    if (this.peer) return this.peer.isEnabled(kind);
    const track = this.tracks[kind === "audio" ? 0 : 1];
    return !!track && track.enabled;
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
    if (this.peer) this.peer.close();
    this.peer = null;
    this.remote = { audio: true, video: true };
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
    if (this.signal) this.signal.close();
    this.signal = null;
    this.setState("idle");
  }
}
