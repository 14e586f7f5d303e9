// A short chime for the screens (a new kitchen ticket, a number ready on the board). Browsers let
// a page make sound only after a user gesture: the screen's "Sound on" button is one.
import { logFailure } from "./report.js";

export class Chime {
  constructor() {
    /** @type {AudioContext | null} */
    this.audio = null;
  }

  unlock() {
    try {
      this.audio = this.audio || new (window.AudioContext || window.webkitAudioContext)();
      if (this.audio.state === "suspended") this.audio.resume().catch((error) => logFailure("turning sound on", error));
    } catch (unsupported) {
      logFailure("making sound (no chime on this browser)", unsupported);
      this.audio = null;
    }
    return Boolean(this.audio);
  }

  /** @param {number[]} notes frequencies in Hz, played one after another */
  play(notes = [660, 880]) {
    const audio = this.audio;
    if (!audio || audio.state !== "running") return;
    const now = audio.currentTime;
    notes.forEach((frequency, index) => {
      const offset = index * 0.2;
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.2, now + offset);
      gain.gain.exponentialRampToValueAtTime(0.001, now + offset + 0.18);
      tone.connect(gain).connect(audio.destination);
      tone.start(now + offset);
      tone.stop(now + offset + 0.18);
    });
  }
}
