// The dashboard's video pane: the shared call (static/common/video-call.js) with the agent API's
// token endpoints, the call channel (signed by /broadcasting/auth with the XSRF token), the
// dashboard's words, and the microphone and camera buttons (either provider). Chat messages on
// the call channel go to `onChat` (chat.js).
import { interpolate, pgettext } from "../common/gettext.js";
import { sessionAuthorization } from "../common/channel-auth.js";
import { reasonOf, VideoCall } from "../common/video-call.js";
import { get, post, xsrfHeaders } from "./api.js";
import { byId } from "../common/ui.js";

const REMOTE_OFF = { audio: () => pgettext("agent", "The customer's microphone is off."), video: () => pgettext("agent", "The customer's camera is off.") };

/** @param {{remote?: {audio: boolean, video: boolean}}} detail */
function remoteWords({ remote }) {
  const off = remote ? /** @type {const} */ (["audio", "video"]).filter((kind) => !remote[kind]) : [];
  return off.length ? interpolate(pgettext("agent", "Video connected. %(off)s"), { off: off.map((kind) => REMOTE_OFF[kind]()).join(" ") }) : pgettext("agent", "Video connected");
}

const WORDS = {
  idle: () => pgettext("agent", "Video not started"),
  connecting: () => pgettext("agent", "Connecting video…"),
  reconnecting: () => pgettext("agent", "Reconnecting video…"),
  connected: remoteWords,
  /** @param {{error?: any, stage?: string, retrySeconds: number}} detail */
  unavailable: ({ error, stage, retrySeconds }) => {
    if (stage === "token") return interpolate(pgettext("agent", "Video unavailable: %(why)s"), { why: error.message });
    if (stage === "remote") return interpolate(pgettext("agent", "Video unavailable: %(why)s"), { why: error.message || String(error) });
    return interpolate(pgettext("agent", "Video unavailable: %(why)s. The rest of the session works; retrying in %(count)s s."), { why: reasonOf(error) || pgettext("agent", "unknown error"), count: retrySeconds });
  },
};

/** pusher-js (the page loads it) and its options for the call channel, as the dashboard's link connects. */
async function connect() {
  const config = JSON.parse(byId("agent-config").textContent);
  const port = Number(window.location.port) || undefined;
  if (!window.Pusher) throw new Error("the real-time client did not load");
  const options = {
    cluster: "local", // pusher-js insists on one; wsHost decides where it connects
    wsHost: config.wsHost || window.location.hostname,
    wsPort: config.wsPort || port || 80,
    wssPort: config.wsPort || port || 443,
    forceTLS: config.forceTLS,
    enabledTransports: ["ws", "wss"],
    disableStats: true,
    channelAuthorization: sessionAuthorization(config.authEndpoint, xsrfHeaders, "signing the call channel"),
  };
  return { Pusher: window.Pusher, key: config.realtimeKey, options };
}

/** The vendored SDK's address, which the dashboard's page names (templates/agent/index.html). */
function videoSdkUrl() {
  const sdkUrl = document.body.dataset.videoSdk;
  if (!sdkUrl) throw new Error("the page names no video SDK (data-video-sdk)");
  return sdkUrl;
}

export class VideoPane extends VideoCall {
  /**
   * @param {(event: string, data: any) => void} [onChat]
   * @param {(state: string) => void} [onVideoState] each state of the call (the chat opens when it fails)
   */
  constructor(onChat, onVideoState = () => {}) {
    super({
      pane: byId("video"),
      localVideo: byId("local-video"),
      remoteVideo: byId("remote-video"),
      sdkUrl: videoSdkUrl(),
      get,
      post,
      tokenUrl: (channel) => `/api/video/token?channel=${encodeURIComponent(channel)}&role=publisher`,
      refreshUrl: "/api/video/token/refresh",
      connect,
      onChat,
      onState: (state, detail) => {
        byId("video-state").textContent = WORDS[state](detail);
        onVideoState(state);
      },
      onMedia: (live) => {
        this.micButton.disabled = this.cameraButton.disabled = !live;
        if (!live) this.showControls();
      },
    });
    this.micButton = byId("toggle-mic", HTMLButtonElement);
    this.cameraButton = byId("toggle-camera", HTMLButtonElement);
    this.micButton.addEventListener("click", () => this.toggle("audio"));
    this.cameraButton.addEventListener("click", () => this.toggle("video"));
  }

  /** @param {"audio" | "video"} kind */
  async toggle(kind) {
    await this.setEnabled(kind, !this.isEnabled(kind));
    this.showControls();
  }

  // The buttons say what pressing them does; a call without tracks reads as both on.
  showControls() {
    const mic = this.tracks.length || this.peer ? this.isEnabled("audio") : true;
    const camera = this.tracks.length || this.peer ? this.isEnabled("video") : true;
    this.micButton.setAttribute("aria-pressed", mic ? "false" : "true");
    this.micButton.textContent = mic ? pgettext("agent", "Mute microphone") : pgettext("agent", "Unmute microphone");
    this.cameraButton.setAttribute("aria-pressed", camera ? "false" : "true");
    this.cameraButton.textContent = camera ? pgettext("agent", "Turn camera off") : pgettext("agent", "Turn camera on");
  }
}
