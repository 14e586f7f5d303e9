// Every sentence the kiosk shows about something that happened (refusals, endings, the network,
// the video): one catalogue, free of the DOM, unit-tested (tests/js/kiosk-words.test.js).
import { reasonOf } from "../common/report.js";
import { gettext_noop, t } from "./messages.js";
import { declineCause } from "./reader.js";

/** @typedef {{code?: string, status?: number, message?: string, details?: Record<string, unknown>, retryAfter?: number | null, unsaid?: boolean}} ApiFailure */

/** Why pairing was refused, in the kiosk's language (section 2 of the spec). @param {ApiFailure} error @param {string} [locale] */
export function pairingRefusal(error, locale = "en-US") {
  const known = {
    PAIRING_CODE_EXPIRED: gettext_noop("pairing.expired"),
    PAIRING_CODE_ALREADY_USED: gettext_noop("pairing.used"),
    PAIRING_CODE_INVALID: gettext_noop("pairing.unknown"),
    DEVICE_ALREADY_PAIRED: gettext_noop("pairing.already_paired"),
    OWNER_SUSPENDED: gettext_noop("pairing.suspended"),
    NETWORK: gettext_noop("pairing.network"),
  }[error.code || ""];
  if (known) return t(locale, known);
  if (error.code === "VALIDATION_ERROR") return failureReason(error, locale);
  if (error.status === 429) {
    return error.retryAfter ? t(locale, "pairing.too_many_wait", { seconds: error.retryAfter }) : t(locale, "pairing.too_many");
  }
  return t(locale, "pairing.failed", { reason: failureReason(error, locale) });
}

/** The texts of an error's details, however nested ({field: [problem]}, {lines: {"0": [problem]}}). @param {unknown} details @returns {string[]} */
const problemsOf = (details) =>
  typeof details === "string" ? [details] : details && typeof details === "object" ? Object.values(details).flatMap(problemsOf) : [];

/**
 * Why a call failed, as the {reason} of a sentence on the customer's screen. No answer, an
 * answer without the API's words (a proxy's error page) and a refused input are said in the
 * customer's language; a refused input's details, the API's English field problems, are said
 * as they are on an English screen only. Any other refusal is the API's message.
 * @param {ApiFailure} error @param {string} [locale]
 */
export function failureReason(error, locale = "en-US") {
  if (error.status === 0) return t(locale, "error.unreachable");
  if (error.unsaid) return t(locale, "error.answered", { status: error.status || "" });
  if (error.code === "VALIDATION_ERROR") {
    const english = String(locale).toLowerCase().startsWith("en");
    return (english && (problemsOf(error.details).join(" ") || error.message)) || t(locale, "error.not_accepted");
  }
  return error.message || t(locale, "error.unknown");
}

/**
 * The name the pairing form suggests: "Kiosk " and the first four characters of the device id,
 * so each tablet suggests its own (the form once suggested "Front counter", the
 * demo kiosk's name, and a newcomer paired a second "Front counter"). The owner may type any name.
 * @param {string} deviceId
 */
export const suggestedName = (deviceId) => `Kiosk ${deviceId.replace(/[^0-9a-z]/gi, "").slice(0, 4).toUpperCase()}`;

/** What is wrong with the pairing form before it is sent ("" when nothing). */
export function pairingFormProblem(/** @type {string} */ code, /** @type {string} */ name, locale = "en-US") {
  if (!/^\d{6}$/.test(code)) return t(locale, "pairing.enter_code");
  if (!name) return t(locale, "pairing.enter_name");
  return "";
}

/** The pairing screen's note after the owner unpaired this kiosk: a messages.js key. */
export const UNPAIRED_BY_OWNER = gettext_noop("pairing.unpaired");

/** Why a customer's session could not start. @param {ApiFailure} error @param {string} [locale] */
export function startRefusal(error, locale = "en-US") {
  const key = { OWNER_SUSPENDED: gettext_noop("start.suspended"), RATE_LIMITED: gettext_noop("start.rate_limited"), NETWORK: gettext_noop("alone.offline") }[error.code || ""];
  return key ? t(locale, key) : t(locale, "start.failed", { reason: failureReason(error, locale) });
}

/** The end reasons the customer reads in their own words (catalogue keys, written out whole so
 * that makemessages finds them); any other reads as customer_abandoned. */
/** @type {Record<string, [string, string]>} */
const ENDINGS = {
  timed_out: [gettext_noop("ended.timed_out.title"), gettext_noop("ended.timed_out.message")],
  customer_abandoned: [gettext_noop("ended.customer_abandoned.title"), gettext_noop("ended.customer_abandoned.message")],
  refused_service: [gettext_noop("ended.refused_service.title"), gettext_noop("ended.refused_service.message")],
  technical_issue: [gettext_noop("ended.technical_issue.title"), gettext_noop("ended.technical_issue.message")],
  completed: [gettext_noop("ended.completed.title"), gettext_noop("ended.completed.message")],
};

/** What the customer reads when the session ends without a payment, by end_reason. @param {string | null | undefined} reason @param {string} [locale] @returns {{title: string, message: string}} */
export function ending(reason, locale = "en-US") {
  const [title, message] = ENDINGS[reason || ""] || ENDINGS.customer_abandoned;
  return { title: t(locale, title), message: t(locale, message) };
}

/** Why the camera could not start, when the browser said a known reason (catalogue keys). */
/** @type {Record<string, string>} */
const VIDEO_REASONS = { PERMISSION_DENIED: gettext_noop("video.reason.PERMISSION_DENIED"), DEVICE_NOT_FOUND: gettext_noop("video.reason.DEVICE_NOT_FOUND") };

/** @param {"idle" | "connecting" | "reconnecting" | "connected" | "unavailable"} state @param {{error?: unknown, remote?: {audio: boolean, video: boolean}}} [detail] @param {string} [locale] */
export function videoWords(state, detail = {}, locale = "en-US") {
  switch (state) {
    case "connecting":
      return t(locale, "video.connecting");
    case "reconnecting":
      return t(locale, "video.reconnecting");
    case "connected": {
      const remote = [
        detail.remote && !detail.remote.audio ? t(locale, "video.remote_muted") : "",
        detail.remote && !detail.remote.video ? t(locale, "video.remote_camera_off") : "",
      ].filter(Boolean);
      return remote.length ? `${t(locale, "video.connected")}. ${remote.join(" ")}` : t(locale, "video.connected");
    }
    case "unavailable": {
      const known = VIDEO_REASONS[/** @type {{code?: string}} */ (detail.error || {}).code || ""];
      return t(locale, "video.unavailable", { reason: known ? t(locale, known) : reasonOf(detail.error) || t(locale, "error.unknown") });
    }
    default:
      return t(locale, "video.idle");
  }
}

/**
 * The card was refused, in the customer's language: why, from the processor's code (its
 * decline_code, else its code), when it is a cause the customer can act on (reader.js's one
 * mapping), else a plain "declined". The processor's English sentence is not shown.
 * @param {string | null | undefined} code @param {string} [locale]
 */
export function declined(code, locale = "en-US") {
  const cause = declineCause(code);
  return cause ? t(locale, "card.declined_because", { reason: t(locale, cause) }) : t(locale, "card.declined");
}

/**
 * A card not taken, by the processor's code, each cause in its own words:
 * an empty field and a mistyped number are the customer's to fix (state "ready", the number kept);
 * a processing error is a passing fault (state "error", the same card may be tried again); only
 * a decline says "declined" (state "declined", the field cleared for another card).
 * @param {string} code @param {string | null | undefined} message @param {string} [locale]
 * @returns {{state: "ready" | "error" | "declined", words: string, clear: boolean}}
 */
export function cardRefusal(code, message, locale = "en-US") {
  if (code === "incomplete") return { state: "ready", words: t(locale, "card.enter"), clear: false };
  if (code === "incorrect_number" || code === "invalid_number" || code === "incomplete_number") {
    return { state: "ready", words: t(locale, "card.invalid"), clear: false };
  }
  if (code === "processing_error") return { state: "error", words: t(locale, "card.processing_error"), clear: false };
  return { state: "declined", words: declined(code, locale), clear: true };
}

/**
 * The network banner. @param {number | null} retryIn seconds to the next try, 0 while trying,
 * null for an unpaired kiosk (its next pairing attempt is the retry)
 */
export function connectionLost(retryIn, locale = "en-US") {
  if (retryIn === null) return t(locale, "network.lost");
  return retryIn > 0 ? t(locale, "network.retry_in", { seconds: retryIn }) : t(locale, "network.retrying");
}

/** The next wait after a failed try: 2, 4, 8, 16 then 30 s. @param {number} previous seconds, 0 at first */
export const nextBackoff = (previous) => Math.min(previous ? previous * 2 : 2, 30);

/** @param {string | null | undefined} agentName @param {string} [locale] */
export const agentHere = (agentName, locale = "en-US") =>
  t(locale, "session.agent_here", { name: agentName || t(locale, "session.someone") });

/** A colleague took the session over (a transfer): said with the new agent's name. @param {string | null | undefined} agentName @param {string} [locale] */
export const agentTookOver = (agentName, locale = "en-US") =>
  t(locale, "session.agent_took_over", { name: agentName || t(locale, "session.someone") });

/** @typedef {{position: number, estimated_wait_seconds: number | null, agents_available: number}} QueuePlace */

/** About how long, in words: "less than a minute", "about 1 minute", "about 4 minutes". @param {number} seconds @param {string} [locale] */
export function aboutWait(seconds, locale = "en-US") {
  if (seconds < 45) return t(locale, "queue.less_than_minute");
  const minutes = Math.max(1, Math.round(seconds / 60));
  return minutes === 1 ? t(locale, "queue.about_one_minute") : t(locale, "queue.about_minutes", { minutes });
}

/**
 * The customer's place in line while waiting (the status body's `queue`, or QueueUpdated's):
 * "You are number 2 · about 1 minute", the honest words when there is no estimate, and how many
 * of the team are free, in the customer's language. Empty lines when the server said nothing.
 * @param {QueuePlace | null | undefined} queue @param {string} [locale]
 * @returns {{place: string, agents: string}}
 */
export function queueWords(queue, locale = "en-US") {
  if (!queue) return { place: "", agents: "" };
  const number = queue.position === 1 ? t(locale, "queue.next") : t(locale, "queue.number", { position: queue.position });
  const wait =
    queue.estimated_wait_seconds === null || queue.estimated_wait_seconds === undefined
      ? t(locale, "queue.wait_unknown")
      : aboutWait(queue.estimated_wait_seconds, locale);
  const free = queue.agents_available;
  const agents =
    free === 0 ? t(locale, "queue.none_free") : free === 1 ? t(locale, "queue.one_free") : t(locale, "queue.some_free", { count: free });
  return { place: `${number} · ${wait}`, agents };
}
