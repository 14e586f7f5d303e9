// Django's gettext in the browser: the functions its JavaScript catalogue script
// (django.views.i18n.JavaScriptCatalog) defines on `django`, read when called, so a page that
// loads a catalogue reads its translations. A page that loads none reads the msgids themselves:
// the agent dashboard, English only, whose msgids are its English (locale/en/LC_MESSAGES/
// djangojs.po, context "agent"; docs/decisions/words.md "Gettext catalogues"). makemessages finds
// these calls by their names.

/** @typedef {{pgettext?: (context: string, msgid: string) => string, npgettext?: (context: string, singular: string, plural: string, count: number) => string}} DjangoCatalogue */

const catalogue = () => /** @type {DjangoCatalogue} */ (/** @type {{django?: DjangoCatalogue}} */ (globalThis).django || {});

/** The msgid in its context, translated when a catalogue says it. @param {string} context @param {string} msgid */
export function pgettext(context, msgid) {
  const { pgettext: translate } = catalogue();
  return translate ? translate(context, msgid) : msgid;
}

/** The singular or plural by `count` (English's rule without a catalogue). @param {string} context @param {string} singular @param {string} plural @param {number} count */
export function npgettext(context, singular, plural, count) {
  const { npgettext: translate } = catalogue();
  if (translate) return translate(context, singular, plural, count);
  return count === 1 ? singular : plural;
}

/**
 * Fills %(name)s placeholders, as Django's interpolate(fmt, values, true) does.
 * @param {string} format @param {Record<string, string | number>} values
 */
export function interpolate(format, values) {
  return format.replace(/%\((\w+)\)s/g, (whole, /** @type {string} */ name) => (name in values ? String(values[name]) : whole));
}
