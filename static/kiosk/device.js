// What this device keeps across reloads, in localStorage: its id (a UUID v4 made once, kept for
// the device's lifetime, even across unpairing) and, once paired, the device token, the kiosk id
// and the last known business settings (shown at once on start, then refreshed from the API) and
// whether it asks eat in or take away; while a customer's session is open, its id and language,
// so a reload resumes it (a reload in the middle of an order would otherwise strand the customer).
const KEY = "kiosk-app.device";

/**
 * @typedef {object} DeviceData what localStorage keeps
 * @property {string} [deviceId]
 * @property {string} [token] the device token, once paired
 * @property {string} [kioskId]
 * @property {import("./state.js").Profile} [profile]
 * @property {{id: string, locale: string, alone?: import("./self-service.js").CartLineIn[]}} [openSession]
 * @property {boolean} [asksDining] whether the business asked eat in or take away at its last session (dining.js)
 */

function uuid4() {
  if (window.crypto.randomUUID) return window.crypto.randomUUID();
  const bytes = window.crypto.getRandomValues(new Uint8Array(16)); // randomUUID needs a secure context
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** @returns {DeviceData} */
function load() {
  try {
    return JSON.parse(window.localStorage.getItem(KEY) ?? "null") || {}; // nothing stored: JSON null
  } catch (unreadable) {
    console.warn(`this device's stored pairing is unreadable, starting unpaired: ${unreadable}`);
    return {};
  }
}

class Device {
  constructor() {
    const stored = load();
    /** @type {DeviceData & {deviceId: string}} made once, kept for the device's lifetime */
    this.data = { ...stored, deviceId: stored.deviceId || uuid4() };
    if (!stored.deviceId) this.save();
  }

  save() {
    window.localStorage.setItem(KEY, JSON.stringify(this.data));
  }

  get id() {
    return this.data.deviceId;
  }

  get paired() {
    return Boolean(this.data.token && this.data.kioskId);
  }

  get kioskId() {
    return this.data.kioskId;
  }

  get profile() {
    return this.data.profile || null;
  }

  /** @returns {Record<string, string>} */
  headers() {
    const { deviceId, token } = this.data;
    return token ? { "X-Device-Id": deviceId, "X-Device-Token": token } : {};
  }

  /** @param {{device_token: string, kiosk_id: string, business: import("./state.js").Profile["business"], settings: import("./state.js").Profile["settings"]}} result the pairing answer */
  pairedWith(result) {
    this.data.token = result.device_token;
    this.data.kioskId = result.kiosk_id;
    this.data.profile = { business: result.business, settings: result.settings };
    this.save();
  }

  /** @param {import("./state.js").Profile} profile */
  remember(profile) {
    this.data.profile = { business: profile.business, settings: profile.settings, name: profile.name, mount: profile.mount };
    this.save();
  }

  /** Whether the business asks eat in or take away, as last read (true, the owner's default, before any read). */
  get asksDining() {
    return this.data.asksDining ?? true;
  }

  /** @param {boolean} ask */
  set asksDining(ask) {
    if (this.data.asksDining === ask) return;
    this.data.asksDining = ask;
    this.save();
  }

  /**
   * The customer's open session, if this device had one when the page was (re)loaded; `alone`: the
   * cart the customer was building alone (request lines), so a reload resumes it.
   * @returns {{id: string, locale: string, alone?: import("./self-service.js").CartLineIn[]} | null}
   */
  get openSession() {
    return this.data.openSession || null;
  }

  /** @param {string} id @param {string} locale */
  sessionOpened(id, locale) {
    const same = this.data.openSession && this.data.openSession.id === id ? this.data.openSession : {};
    this.data.openSession = { ...same, id, locale };
    this.save();
  }

  /** The cart built alone, as the server last accepted it. @param {import("./self-service.js").CartLineIn[]} lines */
  aloneCart(lines) {
    if (!this.data.openSession) return;
    this.data.openSession.alone = lines;
    this.save();
  }

  sessionClosed() {
    if (!this.data.openSession) return;
    delete this.data.openSession;
    this.save();
  }

  forget() {
    delete this.data.openSession;
    delete this.data.token;
    delete this.data.kioskId;
    delete this.data.profile;
    delete this.data.asksDining;
    this.save();
  }
}

export const device = new Device();
