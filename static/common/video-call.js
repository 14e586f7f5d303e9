// One video call for both apps, from either provider; the token answer says which. The managed
// provider's web SDK (agora-rtc-sdk-ng, the project's vendored copy, loaded on first use) joins
// the channel named after the session with a publisher token, refreshed before it expires. The
// self-hosted provider (app_id "webrtc") is one peer connection kiosk <-> agent (webrtc-call.js),
// signalled on the session's call channel (call-signal.js), which also carries the chat whatever
// the provider. When the call cannot be made the call reports "unavailable" with the error and
// tries again every RETRY_SECONDS; the app words every state through its onState callback (the
// rest of its screen carries on).
import { CallSignal } from "./call-signal.js";
import { asFailure, logFailure, reasonOf } from "./report.js";
import { loadScript } from "./scripts.js";
import { PeerCall } from "./webrtc-call.js";

export const RETRY_SECONDS = 30;
export const WEBRTC_APP_ID = "webrtc";
const KIOSK_UID_BASE = 1_000_000_000; // kiosks' uids start here, agents' below (apps/sessions/video_call.py)
const JOIN_TIMEOUT_SECONDS = 12; // the provider answers a join in a few seconds

/**
 * A call's token (GET the app's token URL, POST its refresh URL): app_id "webrtc" is the
 * self-hosted provider, any other the managed one's app.
 * @typedef {object} VideoToken
 * @property {string} app_id
 * @property {string} token
 * @property {number} uid kiosks' from KIOSK_UID_BASE up, agents' below
 * @property {string} expires_at ISO 8601
 * @property {RTCIceServer[]} [ice_servers]
 * @property {number} [ice_restart_seconds]
 */

/** @typedef {"idle" | "connecting" | "reconnecting" | "connected" | "unavailable"} CallState */

/** @param {string} src */
async function loadSdk(src) {
  const AgoraRTC = await loadScript(src, "AgoraRTC", "the video SDK file");
  AgoraRTC.setLogLevel(4); // its own failures are shown on screen, not in the console
  AgoraRTC.disableLogUpload();
  return AgoraRTC;
}

/**
 * @template T
 * @param {Promise<T>} promise @param {number} seconds @param {string} what
 * @returns {Promise<T>}
 */
function withTimeout(promise, seconds, what) {
  /** @type {number | undefined} */
  let timer;
  /** @type {Promise<never>} */
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
   * @param {(state: CallState, detail: {error?: unknown, stage?: string, retrySeconds: number, remote?: {audio: boolean, video: boolean}}) => void} options.onState
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
    /** @type {CallState} */
    this.state = "idle";
    this.onChat = onChat || (() => {});
    /** @type {CallSignal | null} */
    this.signal = null;
    /** @type {PeerCall | null} */
    this.peer = null;
    /** @type {any} */ (this.pane).videoCall = this; // for diagnostics: the browser tests read the peer connection's stats
    /** @type {string | null} the session the call is for */
    this.channel = null;
    /** @type {VideoToken | null} */
    this.token = null;
    /** @type {AgoraClient | null} */
    this.client = null;
    /** @type {AgoraTrack[]} [microphone, camera] (the managed provider's) */
    this.tracks = [];
    /** @type {number | undefined} */
    this.refreshTimer = undefined;
    /** @type {number | undefined} */
    this.retryTimer = undefined;
  }

  // The states' detail carries `remote`, the other side's microphone and camera, so the words can
  // say "the agent's microphone is off".
  /** @param {CallState} state @param {{error?: unknown, stage?: string}} [detail] */
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

  /** @param {string} channel the session's id */
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
    if (!this.token) return; // stopped meanwhile: nothing to refresh
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
      if (channel === this.channel && asFailure(error).status !== 401) this.refreshTimer = window.setTimeout(() => this.refresh(), 5000);
    }
  }

  /** The call channel, whatever the provider: the chat needs it too. @param {string} channel */
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
    const token = this.token;
    if (!token) return; // stopped meanwhile
    if (token.app_id === WEBRTC_APP_ID) return this.joinPeer(token);
    const channel = this.channel;
    try {
      if (!channel) return; // stopped meanwhile
      const AgoraRTC = await loadSdk(this.sdkUrl);
      if (channel !== this.channel) return;
      const client = AgoraRTC.createClient({ mode: "rtc", codec: "vp8" });
      this.client = client;
      client.on("token-privilege-will-expire", () => this.refresh());
      client.on("user-published", (user, mediaType) => this.showRemote(user, mediaType));
      await withTimeout(
        client.join(token.app_id, channel, token.token, token.uid),
        JOIN_TIMEOUT_SECONDS,
        "reaching the video provider",
      );
      this.tracks = await AgoraRTC.createMicrophoneAndCameraTracks();
      this.tracks[1].play(this.localVideo);
      await client.publish(this.tracks);
      this.onMedia(true);
      this.setState("connected");
    } catch (error) {
      if (channel !== this.channel) return;
      this.setState("unavailable", { error, stage: "join" });
      await this.leave();
      this.retryTimer = window.setTimeout(() => this.join(), RETRY_SECONDS * 1000);
    }
  }

  /** @param {VideoToken} token */
  async joinPeer(token) {
    const channel = this.channel;
    const peer = new PeerCall({
      token,
      signal: { send: (event, data) => !!this.signal && this.signal.send(event, data) },
      localVideo: this.localVideo,
      remoteVideo: this.remoteVideo,
      offerer: token.uid < KIOSK_UID_BASE,
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

  /** @param {AgoraRemoteUser} user @param {"audio" | "video"} mediaType */
  async showRemote(user, mediaType) {
    try {
      if (!this.client) return; // left meanwhile
      await this.client.subscribe(user, mediaType);
      const track = mediaType === "video" ? user.videoTrack : user.audioTrack;
      if (!track) throw new Error(`the ${mediaType} track did not arrive`);
      if (mediaType === "video") track.play(this.remoteVideo);
      else track.play();
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
