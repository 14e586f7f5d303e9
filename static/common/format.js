// Formatting both apps share, free of the DOM (unit-tested under Node: tests/js/).

/**
 * Cents as money in `currency`, in the reader's locale (undefined: the browser's). The one
 * formatter of amounts: with `currency` null (not known yet) the amount alone, never a guessed symbol.
 * @param {number} cents
 * @param {string | null} [currency]
 * @param {string} [locale]
 */
export function money(cents, currency = "USD", locale = undefined) {
  if (currency === null) return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(cents / 100);
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency }).format(cents / 100);
  } catch (unknownCurrency) {
    return (cents / 100).toFixed(2) + " " + currency; // Intl refuses codes it does not know
  }
}
