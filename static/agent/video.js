// The dashboard's video pane: the shared call (static/common/video-call.js) with the agent API's
// token endpoints, the dashboard's words, and the microphone and camera buttons.
import { reasonOf, VideoCall } from "../common/video-call.js";
import { get, post } from "./api.js";
import { byId } from "../common/ui.js";

const WORDS = {
  idle: () => "Video not started",
  connecting: () => "Connecting video…",
  connected: () => "Video connected",
  /** @param {{error?: any, stage?: string, retrySeconds: number}} detail */
  unavailable: ({ error, stage, retrySeconds }) => {
    if (stage === "token") return `Video unavailable: ${error.message}`;
    if (stage === "remote") return `Video unavailable: ${error.message || error}`;
    return `Video unavailable: ${reasonOf(error)}. The rest of the session works; retrying in ${retrySeconds} s.`;
  },
};

export class VideoPane extends VideoCall {
  constructor() {
    super({
      pane: byId("video"),
      localVideo: byId("local-video"),
      remoteVideo: byId("remote-video"),
      sdkUrl: document.body.dataset.videoSdk,
      get,
      post,
      tokenUrl: (channel) => `/api/video/token?channel=${encodeURIComponent(channel)}&role=publisher`,
      refreshUrl: "/api/video/token/refresh",
      onState: (state, detail) => (byId("video-state").textContent = WORDS[state](detail)),
      onMedia: (live) => (this.micButton.disabled = this.cameraButton.disabled = !live),
    });
    this.micButton = byId("toggle-mic", HTMLButtonElement);
    this.cameraButton = byId("toggle-camera", HTMLButtonElement);
    this.micButton.addEventListener("click", () => this.toggle(0, this.micButton, "Unmute microphone", "Mute microphone"));
    this.cameraButton.addEventListener("click", () =>
      this.toggle(1, this.cameraButton, "Turn camera on", "Turn camera off"),
    );
  }

  async toggle(index, button, offLabel, onLabel) {
    const track = this.tracks[index];
    if (!track) return;
    const enabled = !track.enabled;
    await track.setEnabled(enabled);
    button.setAttribute("aria-pressed", enabled ? "false" : "true");
    button.textContent = enabled ? onLabel : offLabel;
  }
}
