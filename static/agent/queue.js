// The incoming queue: cards keyed by session id, a waiting time that ticks, a ring (muteable)
// and the tab title while someone waits.
import { logFailure } from "../common/report.js";
import { $, announce, duration, el } from "./ui.js";

const BASE_TITLE = document.title;

export class Queue {
  constructor({ onAccept }) {
    this.onAccept = onAccept;
    this.cards = new Map(); // id -> {session, receivedAt, node}
    this.goneAt = new Map(); // id -> when its card was removed
    this.muted = localStorage.getItem("agent.muted") === "1";
    this.audio = null;
    this.list = $("#incoming");
    window.setInterval(() => this.tick(), 1000);
  }

  // Browsers let a page make sound only after a user gesture; signing in is one.
  unlockSound() {
    try {
      this.audio = this.audio || new (window.AudioContext || window.webkitAudioContext)();
      if (this.audio.state === "suspended") this.audio.resume().catch((error) => logFailure("unlocking the ring", error));
    } catch (unsupported) {
      this.audio = null;
    }
  }

  setMuted(muted) {
    this.muted = muted;
    localStorage.setItem("agent.muted", muted ? "1" : "0");
  }

  ring() {
    if (this.muted || !this.audio || this.audio.state !== "running") return;
    const now = this.audio.currentTime;
    [0, 0.25].forEach((offset) => {
      const tone = this.audio.createOscillator();
      const gain = this.audio.createGain();
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.15, now + offset);
      gain.gain.exponentialRampToValueAtTime(0.001, now + offset + 0.2);
      tone.connect(gain).connect(this.audio.destination);
      tone.start(now + offset);
      tone.stop(now + offset + 0.2);
    });
  }

  add(session, { quiet = false } = {}) {
    if (this.cards.has(session.id)) return;
    const node = el(
      "li",
      { class: "card incoming", "data-session-id": session.id },
      el("strong", { class: "kiosk-name", text: session.kiosk.name }),
      el("span", { class: "location", text: session.kiosk.location || "" }),
      el("span", { class: "business", text: session.business.name }),
      el("span", { class: "waiting", "aria-label": "waiting time" }),
      el("button", { type: "button", class: "primary accept", text: "Accept", onclick: () => this.onAccept(session) }),
    );
    this.cards.set(session.id, { session, receivedAt: Date.now(), node });
    this.list.append(node);
    this.tick();
    if (!quiet) {
      this.ring();
      announce(`New session from ${session.kiosk.name}, ${session.business.name}.`);
    }
  }

  remove(id, reason) {
    const card = this.cards.get(id);
    if (!card) return;
    card.node.remove();
    this.cards.delete(id);
    this.goneAt.set(id, Date.now());
    this.tick();
    if (reason) announce(`${card.session.kiosk.name}: ${reason}.`);
  }

  // A poll answer is the whole truth as of when it was asked (`askedAt`): drop what is gone, add
  // what is new, but keep what the socket said since (a card pushed, a card claimed or withdrawn).
  replace(sessions, askedAt = Date.now()) {
    const ids = new Set(sessions.map((s) => s.id));
    [...this.cards.values()]
      .filter(({ session, receivedAt }) => !ids.has(session.id) && receivedAt < askedAt)
      .forEach(({ session }) => this.remove(session.id));
    sessions.filter((session) => !(this.goneAt.get(session.id) >= askedAt)).forEach((session) => this.add(session));
    for (const [id, at] of this.goneAt) if (at < askedAt - 60_000) this.goneAt.delete(id);
  }

  clear() {
    [...this.cards.keys()].forEach((id) => this.remove(id));
  }

  tick() {
    for (const { session, receivedAt, node } of this.cards.values()) {
      const seconds = (session.waiting_seconds || 0) + Math.floor((Date.now() - receivedAt) / 1000);
      node.querySelector(".waiting").textContent = `waiting ${duration(seconds)}`;
    }
    $("#queue-empty").hidden = this.cards.size > 0;
    document.title = this.cards.size ? `(${this.cards.size}) Incoming · ${BASE_TITLE}` : BASE_TITLE;
  }
}
