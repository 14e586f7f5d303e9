// The printers the kitchen must hear about (GET /api/displays/kitchen/tickets' `printers` and the
// PrintersChanged message): one line each, "Kitchen printer “Bar” out of paper: 3 tickets
// waiting", marked late once its oldest waiting ticket is older than `print_late_seconds`.
import { interpolate, npgettext, pgettext } from "../common/gettext.js";

/**
 * @typedef {{id: string, name: string, state: string, waiting: number, oldest_waiting_at: string | null}} PrinterAlert
 * @typedef {{id: string, text: string, late: boolean}} PrinterLine
 */

/** @param {string} state a printer's, in the words of the line (read when drawn: the catalogue loads first) */
function stateWords(state) {
  /** @type {Record<string, string>} */
  const words = {
    offline: pgettext("display", "offline"),
    paper_out: pgettext("display", "out of paper"),
    cover_open: pgettext("display", "open (cover)"),
    online: pgettext("display", "slow"),
  };
  return words[state] || state;
}

/**
 * @param {PrinterAlert[]} printers @param {number} now @param {number} lateSeconds
 * @returns {PrinterLine[]}
 */
export function printerLines(printers, now, lateSeconds) {
  return printers.map((printer) => {
    const waiting = interpolate(npgettext("display", "%(count)s ticket waiting", "%(count)s tickets waiting", printer.waiting), {
      count: printer.waiting,
    });
    const since = printer.oldest_waiting_at ? Date.parse(printer.oldest_waiting_at) : null;
    const late = since !== null && now - since >= lateSeconds * 1000;
    const minutes = since !== null ? Math.floor((now - since) / 60000) : 0;
    const state = stateWords(printer.state);
    const text = late
      ? interpolate(pgettext("display", "Kitchen printer “%(name)s” %(state)s: %(waiting)s (the oldest for %(minutes)s min: check the screen, not the paper)"), {
          name: printer.name,
          state,
          waiting,
          minutes,
        })
      : interpolate(pgettext("display", "Kitchen printer “%(name)s” %(state)s: %(waiting)s"), { name: printer.name, state, waiting });
    return { id: printer.id, text, late };
  });
}
