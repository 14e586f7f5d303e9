// The kiosk's video: the shared call (static/common/video-call.js) with the kiosk API's token
// endpoints and the kiosk's words; the order carries on whatever the video does.
import { get, post } from "./api.js";
import { $ } from "./ui.js";
import { AGORA_SDK, shared, staticUrl } from "./vendor.js";

const { reasonOf, VideoCall } = await shared("video-call.js");

const WORDS = {
  idle: () => "Video not started",
  connecting: () => "Connecting video…",
  connected: () => "Video connected",
  unavailable: ({ error }) => `Video unavailable: ${reasonOf(error)}. Your order carries on.`,
};

export class KioskVideo extends VideoCall {
  constructor() {
    super({
      pane: $("#video"),
      localVideo: $("#local-video"),
      remoteVideo: $("#remote-video"),
      sdkUrl: staticUrl(AGORA_SDK),
      get,
      post,
      tokenUrl: (channel) => `/api/public/video/token?channel=${encodeURIComponent(channel)}&role=publisher`,
      refreshUrl: "/api/public/video/token/refresh",
      onState: (state, detail) => ($("#video-state").textContent = WORDS[state](detail)),
    });
  }
}
