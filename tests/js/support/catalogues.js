// The kiosk's gettext catalogues as the unit tests read them: straight from the .po files
// (locale/<language>/LC_MESSAGES/djangojs.po), installed into static/kiosk/messages.js the way
// the app installs the server's JSON catalogues. Importing this module installs them.
import { readFileSync } from "node:fs";

import { installCatalogs, LANGUAGES } from "../../../static/kiosk/messages.js";

const ROOT = new URL("../../../", import.meta.url);

/** The C-style escapes a .po string may hold. @param {string} quoted a "..." literal */
const unquote = (quoted) => JSON.parse(quoted.replace(/\\t/g, "\\t").replace(/\\'/g, "'"));

/**
 * The msgid -> msgstr entries of a .po file, as msgfmt compiles them: the header, obsolete,
 * fuzzy and untranslated entries (an English msgid needs none) left out. @param {string} text
 * @returns {Record<string, string>}
 */
export function parsePo(text) {
  /** @type {Record<string, string>} */
  const entries = {};
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block.split("\n").filter((line) => line && !line.startsWith("#~"));
    if (lines.some((line) => /^#,.*\bfuzzy\b/.test(line))) continue;
    /** @type {Record<string, string>} */
    const fields = {};
    let field = "";
    for (const line of lines) {
      const start = line.match(/^(msgctxt|msgid|msgstr)\s+(".*")$/);
      if (start) {
        field = start[1];
        fields[field] = unquote(start[2]);
      } else if (line.startsWith('"') && field) fields[field] += unquote(line);
    }
    if (fields.msgid && fields.msgstr) entries[fields.msgid] = fields.msgstr;
  }
  return entries;
}

/** @param {string} language @param {string} [domain] */
export const poEntries = (language, domain = "djangojs") =>
  parsePo(readFileSync(new URL(`locale/${language}/LC_MESSAGES/${domain}.po`, ROOT), "utf8"));

installCatalogs(Object.fromEntries(LANGUAGES.map((language) => [language, poEntries(language)])));
