// The printers the kitchen must hear about (GET /api/displays/kitchen/tickets' `printers` and the
// PrintersChanged message): one line each, "Kitchen printer “Bar” out of paper: 3 tickets
// waiting", marked late once its oldest waiting ticket is older than `print_late_seconds`.

/**
 * @typedef {{id: string, name: string, state: string, waiting: number, oldest_waiting_at: string | null}} PrinterAlert
 * @typedef {{id: string, text: string, late: boolean}} PrinterLine
 */

/** @type {Record<string, string>} */
const STATE = { offline: "offline", paper_out: "out of paper", cover_open: "open (cover)", online: "slow" };

/**
 * @param {PrinterAlert[]} printers @param {number} now @param {number} lateSeconds
 * @returns {PrinterLine[]}
 */
export function printerLines(printers, now, lateSeconds) {
  return printers.map((printer) => {
    const waiting = printer.waiting === 1 ? "1 ticket waiting" : `${printer.waiting} tickets waiting`;
    const since = printer.oldest_waiting_at ? Date.parse(printer.oldest_waiting_at) : null;
    const late = since !== null && now - since >= lateSeconds * 1000;
    const minutes = since !== null ? Math.floor((now - since) / 60000) : 0;
    const oldest = late ? ` (the oldest for ${minutes} min: check the screen, not the paper)` : "";
    return { id: printer.id, text: `Kitchen printer “${printer.name}” ${STATE[printer.state] || printer.state}: ${waiting}${oldest}`, late };
  });
}
