// Every sentence the customer reads, in the kiosk's four languages, comes from the gettext
// catalogues: locale/<language>/LC_MESSAGES/djangojs.po, whose msgids are the message keys
// ("order.subtotal"; en.po holds the English). The server serves each as Django's JSON catalogue
// (/api/public/i18n/<language>); the app loads the four once when it starts (loadCatalogs, in
// app.js), so no word waits on the network and a language button redraws the screen at once.
// `t(locale, key, values)` picks the catalogue by the language's first part ("es-ES" -> es) and
// fills {placeholders}; an unknown language reads English. The pairing screen too: it starts in
// English and its language buttons change it like the customer's. No DOM.

/** @typedef {Record<string, string>} Catalog */

/** The kiosk's languages, by primary subtag (the server's catalogues: apps/kiosk_app/catalogue.py). */
export const LANGUAGES = Object.freeze(["en", "es", "fr", "de"]);

/** The catalogues by language, empty until installCatalogs() (each is replaced whole, never edited). */
/** @type {Record<string, Catalog>} */
export const CATALOGS = Object.seal({ en: {}, es: {}, fr: {}, de: {} });

/** The kiosk's languages as the attract screen offers them (locale tags sent as customer_locale). */
export const LOCALES = Object.freeze(["en-US", "es-ES", "fr-FR", "de-DE"]);

/** Each language's name in itself, as its button says it on every screen (whatever the language). */
export const LANGUAGE_NAMES = Object.freeze({ "en-US": "English", "es-ES": "Español", "fr-FR": "Français", "de-DE": "Deutsch" });

/** Puts the given languages' catalogues in place. @param {Record<string, Catalog>} catalogs */
export function installCatalogs(catalogs) {
  for (const language of LANGUAGES) {
    const catalog = catalogs[language];
    if (catalog) CATALOGS[language] = Object.freeze({ ...catalog });
  }
}

/**
 * Loads the four catalogues at once and installs them. `fetchCatalog` answers Django's JSON
 * catalogue body ({catalog, formats, plural}); a plural entry (a list) is not a kiosk sentence.
 * Rejects when one cannot be read: the app cannot speak without them (its loader starts over).
 * @param {(language: string) => Promise<{catalog: Record<string, string | string[]>}>} fetchCatalog
 */
export async function loadCatalogs(fetchCatalog) {
  const bodies = await Promise.all(LANGUAGES.map((language) => fetchCatalog(language)));
  /** @type {Record<string, Catalog>} */
  const catalogs = {};
  LANGUAGES.forEach((language, index) => {
    /** @type {Catalog} */
    const catalog = {};
    for (const [key, text] of Object.entries(bodies[index].catalog || {})) if (typeof text === "string") catalog[key] = text;
    catalogs[language] = catalog;
  });
  installCatalogs(catalogs);
}

/** Marks a message key for the catalogues where it is only named (a table of keys), not said. */
export const gettext_noop = (/** @type {string} */ key) => key;

/** @param {string | null | undefined} locale @returns {Catalog} */
const catalogOf = (locale) => CATALOGS[String(locale || "en").split("-")[0].toLowerCase()] || CATALOGS.en;

/**
 * The sentence `key` in `locale`, its {placeholders} filled from `values`. A key missing from a
 * catalogue reads English (tests/js/kiosk-messages.test.js keeps that from happening); an
 * unknown key reads itself.
 * @param {string | null | undefined} locale @param {string} key @param {Record<string, string | number>} [values]
 */
export function t(locale, key, values = {}) {
  const text = catalogOf(locale)[key] ?? CATALOGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, /** @type {string} */ name) => (name in values ? String(values[name]) : whole));
}
