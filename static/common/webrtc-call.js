// The self-hosted provider's call (token app_id "webrtc"): one RTCPeerConnection between the kiosk
// and the agent, audio and video both ways, signalled over the call channel (call-signal.js).
//
// The agent offers, the kiosk answers. Each side says `client-ready` (with the call id it holds)
// once its camera is on and the channel joined, and again after each rejoin of the channel (a
// socket reconnect). The kiosk answers the agent's ready with its own; the agent answers the
// kiosk's ready naming its own call by resuming it (nothing if connected, else its pending offer
// again or an ICE restart), any other by a fresh connection and offer under a new call id (a
// reload on either side, a new agent after a transfer); messages of an older call id are dropped.
// Candidates are sent in batches (the channel allows 10 client events a second). A connection
// "disconnected" for `restartSeconds` (the token's ice_restart_seconds), or "failed", restarts ICE
// on the same connection, again every `restartSeconds` until it recovers (a restart sent while the
// socket was down is lost): the agent sends an offer with iceRestart (or its pending one again),
// the kiosk asks for one with `client-restart`. Meanwhile the state is "reconnecting".
import { logFailure } from "./report.js";

const CANDIDATE_BATCH_MS = 250;
// A face across a counter: VGA at 15 frames a second is plenty, and keeps the encoder light on a
// kiosk tablet's CPU (and on the agent's, which also runs the dashboard).
const VIDEO_CONSTRAINTS = { width: { ideal: 640 }, height: { ideal: 480 }, frameRate: { ideal: 15, max: 24 } };

/** A getUserMedia failure in the words the apps show (the managed SDK's reasons). @param {any} error */
export function mediaFailure(error) {
  const refused = error && (error.name === "NotAllowedError" || error.name === "SecurityError");
  const missing = error && (error.name === "NotFoundError" || error.name === "OverconstrainedError");
  if (!refused && !missing) return error;
  const failure = new Error(refused ? "the camera or microphone was refused" : "no camera or microphone was found");
  return Object.assign(failure, { code: refused ? "PERMISSION_DENIED" : "DEVICE_NOT_FOUND" });
}

/** @param {HTMLElement} container @param {boolean} muted */
function videoElement(container, muted) {
  container.replaceChildren();
  const video = document.createElement("video");
  Object.assign(video, { autoplay: true, playsInline: true, muted });
  video.style.width = video.style.height = "100%";
  video.style.objectFit = "cover";
  container.append(video);
  return video;
}

/** The description just set, which setLocalDescription leaves in place. @param {RTCPeerConnection} pc */
function localSdp(pc) {
  if (!pc.localDescription) throw new Error("the local description was not set");
  return pc.localDescription.sdp;
}

export class PeerCall {
  /**
   * @param {object} options
   * @param {{uid: number, ice_servers?: RTCIceServer[], ice_restart_seconds?: number}} options.token
   * @param {{send(event: string, data: object): boolean}} options.signal
   * @param {HTMLElement} options.localVideo
   * @param {HTMLElement} options.remoteVideo
   * @param {boolean} options.offerer the agent's side
   * @param {number} options.restartSeconds
   * @param {(state: "connecting" | "reconnecting" | "connected") => void} options.onState
   * @param {(media: {audio: boolean, video: boolean}) => void} options.onRemoteMedia
   */
  constructor({ token, signal, localVideo, remoteVideo, offerer, restartSeconds, onState, onRemoteMedia }) {
    this.token = token;
    this.signal = signal;
    this.localVideo = localVideo;
    this.remoteVideo = remoteVideo;
    this.offerer = offerer;
    this.restartSeconds = token.ice_restart_seconds ?? restartSeconds;
    this.onState = onState;
    this.onRemoteMedia = onRemoteMedia;
    /** @type {MediaStream | null} */
    this.stream = null;
    /** @type {RTCPeerConnection | null} */
    this.pc = null;
    this.callId = "";
    /** @type {RTCIceCandidateInit[]} the other side's, until its description is set */
    this.pendingCandidates = [];
    /** @type {RTCIceCandidateInit[]} ours, sent in a batch */
    this.outgoing = [];
    this.batchTimer = 0;
    this.restartTimer = 0;
    /** @type {Promise<unknown>} messages are handled one after the other (two offers never overlap) */
    this.handling = Promise.resolve();
  }

  /** Camera and microphone on (throws mediaFailure's error), then ready to the other side. */
  async start() {
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: VIDEO_CONSTRAINTS });
    } catch (error) {
      throw mediaFailure(error);
    }
    videoElement(this.localVideo, true).srcObject = this.stream;
    this.sayReady();
  }

  sayReady() {
    if (this.stream) this.signal.send("client-ready", { uid: this.token.uid, call: this.callId });
  }

  /** The channel was (re)joined: the other side may have missed everything meanwhile. */
  joined() {
    this.sayReady();
  }

  /** @param {RTCIceServer[]} iceServers fresh TURN credentials after a token refresh */
  renew(iceServers) {
    this.token = { ...this.token, ice_servers: iceServers };
    if (this.pc) this.pc.setConfiguration({ iceServers });
  }

  /** @param {string} event @param {any} data */
  receive(event, data) {
    this.handling = this.handling.then(() => this.handle(event, data));
    return this.handling;
  }

  /** @param {string} event @param {any} data */
  async handle(event, data) {
    try {
      if (event === "client-ready") await this.onReady(data);
      else if (data.call && event === "client-offer") await this.onOffer(data);
      else if (data.call !== this.callId) return; // an older call's message
      else if (event === "client-answer") await this.onAnswer(data);
      else if (event === "client-ice") await this.onCandidates(data.candidates);
      else if (event === "client-restart" && this.offerer) await this.restartIce();
      else if (event === "client-hangup") this.onHangup();
      else if (event === "client-media") this.onRemoteMedia({ audio: !!data.audio, video: !!data.video });
    } catch (error) {
      logFailure(`handling the call's ${event}`, error);
    }
  }

  /** @param {{call?: string}} data */
  async onReady(data) {
    if (!this.stream) return;
    if (!this.offerer) return this.sayReady(); // the agent (re)joined: it offers when it hears us
    if (this.pc && data.call && data.call === this.callId) return this.resume(); // our call, after a rejoin
    this.connect(`${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`);
    await this.offer(false);
  }

  // The other side still holds our call after one of the sockets came back: whatever it missed
  // meanwhile (an offer, an answer, candidates) is sent again by restarting.
  async resume() {
    if (this.pc && this.pc.connectionState === "connected") return this.sendMedia();
    await this.restartIce();
  }

  /** @param {string} callId */
  connect(callId) {
    const stream = this.stream;
    if (!stream) throw new Error("the camera is not on"); // its callers start a call only after start()
    this.closePeer();
    this.callId = callId;
    const pc = new RTCPeerConnection({ iceServers: this.token.ice_servers || [] });
    this.pc = pc;
    stream.getTracks().forEach((track) => pc.addTrack(track, stream));
    pc.addEventListener("icecandidate", ({ candidate }) => candidate && this.queueCandidate(candidate));
    pc.addEventListener("track", ({ streams }) => {
      const video = this.remoteVideo.querySelector("video") || videoElement(this.remoteVideo, false);
      if (video.srcObject !== streams[0]) video.srcObject = streams[0];
    });
    pc.addEventListener("connectionstatechange", () => this.connectionChanged(pc));
    this.onRemoteMedia({ audio: true, video: true }); // a new call: the other side says otherwise
    this.onState("connecting");
  }

  /** @param {RTCPeerConnection} pc */
  connectionChanged(pc) {
    if (pc !== this.pc) return;
    window.clearTimeout(this.restartTimer);
    const state = pc.connectionState;
    if (state === "connected") {
      this.onState("connected");
      this.sendMedia();
    } else if (state === "disconnected" || state === "failed") {
      this.onState("reconnecting");
      const wait = state === "failed" ? 0 : this.restartSeconds * 1000;
      this.restartTimer = window.setTimeout(() => this.askRestart(pc), wait);
    }
  }

  /** Again every restartSeconds until connected: the last ask may have gone out on a dead socket. */
  /** @param {RTCPeerConnection} pc */
  askRestart(pc) {
    if (pc !== this.pc || pc.connectionState === "connected") return;
    if (this.offerer) this.receive("client-restart", { call: this.callId });
    else this.signal.send("client-restart", { call: this.callId });
    this.restartTimer = window.setTimeout(() => this.askRestart(pc), Math.max(1, this.restartSeconds) * 1000);
  }

  async restartIce() {
    const pc = this.pc;
    if (!pc || pc.connectionState === "connected") return;
    // An offer still unanswered goes again as it was (a new one would orphan the answer on its way).
    if (pc.signalingState === "have-local-offer") this.signal.send("client-offer", { call: this.callId, sdp: localSdp(pc) });
    else await this.offer(true);
  }

  /** @param {boolean} iceRestart */
  async offer(iceRestart) {
    const pc = this.peerConnection();
    await pc.setLocalDescription(await pc.createOffer({ iceRestart }));
    this.signal.send("client-offer", { call: this.callId, sdp: localSdp(pc) });
  }

  /** @param {{call: string, sdp: string}} offer */
  async onOffer({ call, sdp }) {
    if (this.offerer || !this.stream) return;
    if (call !== this.callId || !this.pc) this.connect(call);
    const pc = this.peerConnection();
    await pc.setRemoteDescription({ type: "offer", sdp });
    await this.addPending();
    await pc.setLocalDescription(await pc.createAnswer());
    this.signal.send("client-answer", { call, sdp: localSdp(pc) });
  }

  /** The call's connection, which connect() made. */
  peerConnection() {
    if (!this.pc) throw new Error("no call is connected");
    return this.pc;
  }

  /** @param {{sdp: string}} answer */
  async onAnswer({ sdp }) {
    if (!this.pc || this.pc.signalingState !== "have-local-offer") return;
    await this.pc.setRemoteDescription({ type: "answer", sdp });
    await this.addPending();
  }

  /** @param {RTCIceCandidateInit[] | undefined} candidates */
  async onCandidates(candidates) {
    this.pendingCandidates.push(...(candidates || []));
    if (this.pc && this.pc.remoteDescription) await this.addPending();
  }

  async addPending() {
    const candidates = this.pendingCandidates.splice(0);
    for (const candidate of candidates) await this.peerConnection().addIceCandidate(candidate);
  }

  /** @param {RTCIceCandidate} candidate */
  queueCandidate(candidate) {
    this.outgoing.push(candidate.toJSON());
    if (this.batchTimer) return;
    this.batchTimer = window.setTimeout(() => {
      this.batchTimer = 0;
      const candidates = this.outgoing.splice(0);
      this.signal.send("client-ice", { call: this.callId, candidates });
    }, CANDIDATE_BATCH_MS);
  }

  onHangup() {
    this.closePeer();
    this.callId = "";
    this.remoteVideo.replaceChildren();
    this.onState("connecting"); // until the other side is ready again
  }

  /** @param {"audio" | "video"} kind @param {boolean} enabled */
  setEnabled(kind, enabled) {
    if (!this.stream) return;
    const tracks = kind === "audio" ? this.stream.getAudioTracks() : this.stream.getVideoTracks();
    tracks.forEach((track) => (track.enabled = enabled));
    this.sendMedia();
  }

  /** @param {"audio" | "video"} kind */
  isEnabled(kind) {
    const tracks = this.stream ? (kind === "audio" ? this.stream.getAudioTracks() : this.stream.getVideoTracks()) : [];
    return tracks.some((track) => track.enabled);
  }

  sendMedia() {
    this.signal.send("client-media", { call: this.callId, audio: this.isEnabled("audio"), video: this.isEnabled("video") });
  }

  closePeer() {
    window.clearTimeout(this.restartTimer);
    window.clearTimeout(this.batchTimer);
    this.batchTimer = 0;
    this.outgoing = [];
    this.pendingCandidates = [];
    if (this.pc) this.pc.close();
    this.pc = null;
  }

  /** Hang up: the other side hears it at once instead of waiting for ICE to time out. */
  close() {
    if (this.pc) this.signal.send("client-hangup", { call: this.callId });
    this.closePeer();
    if (this.stream) this.stream.getTracks().forEach((track) => track.stop());
    this.stream = null;
    this.localVideo.replaceChildren();
    this.remoteVideo.replaceChildren();
  }
}
