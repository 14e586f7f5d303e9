// The queue's ring: two short tones when a customer arrives, unless muted (kept on this device).
import { logFailure } from "../common/report.js";

export class Ring {
  constructor() {
    /** @type {AudioContext | null} */
    this.audio = null;
  }

  /** Browsers let a page make sound only after a user gesture; signing in is one. */
  unlock() {
    try {
      this.audio = this.audio || new (window.AudioContext || window.webkitAudioContext)();
      if (this.audio.state === "suspended") this.audio.resume().catch((error) => logFailure("unlocking the ring", error));
    } catch (unsupported) {
      logFailure("making sound (no ring on this browser)", unsupported);
      this.audio = null;
    }
  }

  play() {
    const audio = this.audio;
    if (!audio || audio.state !== "running") return;
    const now = audio.currentTime;
    [0, 0.25].forEach((offset) => {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.15, now + offset);
      gain.gain.exponentialRampToValueAtTime(0.001, now + offset + 0.2);
      tone.connect(gain).connect(audio.destination);
      tone.start(now + offset);
      tone.stop(now + offset + 0.2);
    });
  }
}

const MUTED = "agent.muted";
export const readMuted = () => window.localStorage.getItem(MUTED) === "1";
/** @param {boolean} muted */
export const keepMuted = (muted) => window.localStorage.setItem(MUTED, muted ? "1" : "0");
