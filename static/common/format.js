// Formatting both apps share, free of the DOM (unit-tested under Node: tests/js/).

/**
 * Cents as money in `currency`, in the reader's locale (undefined: the browser's).
 * @param {number} cents
 * @param {string} [currency]
 * @param {string} [locale]
 */
export function money(cents, currency = "USD", locale = undefined) {
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency }).format(cents / 100);
  } catch (unknownCurrency) {
    return (cents / 100).toFixed(2) + " " + currency; // Intl refuses codes it does not know
  }
}
