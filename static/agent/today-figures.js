// The agent's own figures for today (GET /api/reports/me/today) as the words the dashboard's
// "My sessions today" shows: the same metrics the owner's Reports and Agents pages read.
import { pgettext } from "../common/gettext.js";
import { money } from "../common/format.js";

/**
 * @typedef {object} MyToday GET /api/reports/me/today (a subset of its metrics)
 * @property {string} day
 * @property {string} currency
 * @property {number} sessions_started
 * @property {number} sessions_answered
 * @property {number | null} handle_seconds_avg
 * @property {number | null} conversion
 * @property {number} revenue_cents
 */

/** @param {number | null} seconds */
export function handleWords(seconds) {
  if (seconds === null) return "–";
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  return minutes ? `${minutes} min ${String(whole % 60).padStart(2, "0")} s` : `${whole} s`;
}

/**
 * [label, value] pairs, in the order shown.
 * @param {MyToday} today
 * @returns {Array<[string, string]>}
 */
export function todayFigures(today) {
  return [
    [pgettext("agent", "Sessions"), String(today.sessions_started)],
    [pgettext("agent", "Average handle time"), handleWords(today.handle_seconds_avg)],
    [pgettext("agent", "Conversion"), today.conversion === null ? "–" : `${Math.round(today.conversion * 100)} %`],
    [pgettext("agent", "Sales"), money(today.revenue_cents, today.currency)],
  ];
}
