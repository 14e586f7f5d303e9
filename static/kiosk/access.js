// The kiosk's accessible mode, its state and its keys: speech, keypad navigation, the low layout
// and doubled time limits, started without sight (any key on the attract screen, or the button at
// the bottom edge). Large text and high contrast are their own toggles, open to everyone. Pure,
// unit-tested (tests/js/kiosk-access.test.js); keypad.js acts on the keys, speech.js speaks.

/**
 * @typedef {object} Access
 * @property {boolean} on the accessible mode
 * @property {number} rate the speech rate (RATES)
 * @property {number} volume the speech volume, 0.2 to 1
 * @property {boolean} largeText text at 200 %
 * @property {boolean} highContrast text at 7:1 or more
 */

/** @type {Access} */
export const ACCESS_OFF = Object.freeze({ on: false, rate: 1, volume: 1, largeText: false, highContrast: false });

/** The speech rates the keys step through (1 is the voice's own). */
export const RATES = Object.freeze([0.6, 0.8, 1, 1.25, 1.5, 1.8]);

/** @param {Access} access @param {1 | -1} step */
export function stepRate(access, step) {
  const index = RATES.indexOf(access.rate);
  const next = Math.max(0, Math.min(RATES.length - 1, (index < 0 ? RATES.indexOf(1) : index) + step));
  return { ...access, rate: RATES[next] };
}

/** @param {Access} access @param {1 | -1} step */
export function stepVolume(access, step) {
  const volume = Math.round(Math.max(0.2, Math.min(1, access.volume + step * 0.2)) * 10) / 10;
  return { ...access, volume };
}

/** Every time limit the customer meets is doubled in accessible mode. @param {Access} access */
export const timeScale = (access) => (access.on ? 2 : 1);

/**
 * @typedef {"next" | "previous" | "choose" | "back" | "more" | "less" | "repeat" | "slower" | "faster"
 *   | "quieter" | "louder" | "person" | "leave" | "large_text" | "contrast"} Command
 */

/** The command keys beside the arrows, Tab, Enter, Escape, + and - (a keypad's digits, *, #). */
const KEYS = /** @type {Record<string, Command>} */ ({
  "5": "repeat",
  "*": "repeat",
  "4": "slower",
  "6": "faster",
  "7": "quieter",
  "9": "louder",
  "0": "person",
  "8": "large_text",
  "2": "contrast",
  "#": "leave",
});

/**
 * What a key does in accessible mode, or null when it is the page's own (Tab moves the focus
 * natively; keys typed into a text field are the field's).
 * @param {{key: string, shiftKey?: boolean}} event @param {{typing: boolean}} where
 * @returns {Command | null}
 */
export function commandOf(event, { typing }) {
  switch (event.key) {
    case "ArrowDown":
    case "ArrowRight":
      return typing && event.key === "ArrowRight" ? null : "next";
    case "ArrowUp":
    case "ArrowLeft":
      return typing && event.key === "ArrowLeft" ? null : "previous";
    case "Enter":
      return "choose";
    case "Escape":
      return "back";
    case "Backspace":
      return typing ? null : "back";
  }
  if (typing) return null;
  if (event.key === "+") return "more";
  if (event.key === "-") return "less";
  return KEYS[event.key] || null;
}

/** Whether a key press starts accessible mode: any key on the attract screen; elsewhere an arrow
 * or Enter while nothing has the focus (a keyboard user who can see is already on a control).
 * @param {{key: string}} event @param {{screen: string, focused: boolean}} where */
export function startsAccessible(event, { screen, focused }) {
  if (["Shift", "Control", "Alt", "Meta", "CapsLock"].includes(event.key)) return false;
  if (screen === "attract") return true;
  if (screen === "loading" || screen === "pairing") return false;
  return !focused && /^(Arrow(Up|Down|Left|Right)|Enter)$/.test(event.key);
}

/** @typedef {{height_mm: number, screen_height_mm: number, reach_mm: number}} Mount where the kiosk's screen is (GET /kiosks/me) */

/** The least part of the screen the low layout keeps for the controls, even when the owner's
 * figures put the screen above the reach line (the panel tells the owner so). */
export const LEAST_REACH = 0.35;

/**
 * The part of the screen, from its bottom, at or below the reach line (1,220 mm from the floor):
 * the low layout puts every control there. 1 when the figures are not known or all of it is.
 * @param {Mount | null | undefined} mount
 */
export function reachFraction(mount) {
  if (!mount || !(mount.screen_height_mm > 0)) return 1;
  const fraction = (mount.reach_mm - mount.height_mm) / mount.screen_height_mm;
  return Math.max(LEAST_REACH, Math.min(1, fraction));
}

/** WCAG's contrast ratio of two #rrggbb colours (1 to 21). @param {string} one @param {string} other */
export function contrastRatio(one, other) {
  const luminance = (/** @type {string} */ hex) => {
    const [r, g, b] = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16) / 255).map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(one), luminance(other)].sort((a, b) => b - a);
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The business's colour as the kiosk draws it: white words stand on it and it is written on the
 * page's light background, so a colour too light for 4.5:1 against that background (#f9fafb) is
 * darkened, step by step towards black, until it reaches it; a readable colour stays the owner's.
 * @param {string} hex #rrggbb
 */
export function readableBrand(hex) {
  if (contrastRatio(hex, "#f9fafb") >= 4.5) return hex;
  const channels = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
  for (let keep = 0.95; keep > 0; keep -= 0.05) {
    const colour = `#${channels.map((c) => Math.round(c * keep).toString(16).padStart(2, "0")).join("")}`;
    if (contrastRatio(colour, "#f9fafb") >= 4.5) return colour;
  }
  return "#000000";
}
