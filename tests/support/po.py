"""A reader of gettext .po files for the catalogue tests: each translated entry's msgid (with its
msgctxt, joined by EOT as in a compiled .mo) and msgstr. The header, fuzzy, obsolete and
untranslated entries (an English msgid needs none) are left out, as msgfmt leaves them out."""

import ast
import re
from pathlib import Path

from tests.support.processes import ROOT

LOCALE = ROOT / "locale"
LANGUAGES = ("en", "es", "fr", "de")
_FIELD = re.compile(r'^(msgctxt|msgid|msgstr)\s+(".*")$')


def _unquote(literal: str) -> str:
    return str(ast.literal_eval(literal))  # a .po string's escapes are C's, which Python reads alike


def parse_po(text: str) -> dict[str, str]:
    entries: dict[str, str] = {}
    for block in re.split(r"\n\s*\n", text):
        lines = [line for line in block.splitlines() if line and not line.startswith("#~")]
        if any(line.startswith("#,") and "fuzzy" in line for line in lines):
            continue
        fields: dict[str, str] = {}
        field = ""
        for line in lines:
            start = _FIELD.match(line)
            if start:
                field = start[1]
                fields[field] = _unquote(start[2])
            elif line.startswith('"') and field:
                fields[field] += _unquote(line)
        if fields.get("msgid") and fields.get("msgstr"):
            key = f"{fields['msgctxt']}\x04{fields['msgid']}" if "msgctxt" in fields else fields["msgid"]
            entries[key] = fields["msgstr"]
    return entries


def po_path(language: str, domain: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{domain}.po"


def po_entries(language: str, domain: str) -> dict[str, str]:
    return parse_po(po_path(language, domain).read_text(encoding="utf-8"))


def english_comments(language: str) -> dict[str, str]:
    """msgid -> the "# English: " translator's comment of each entry of a djangojs.po."""
    found = re.findall(
        r'^# English: (.*)\n(?:#.*\n)*msgid "(.+)"$', po_path(language, "djangojs").read_text("utf-8"), re.M
    )
    return {msgid: english for english, msgid in found}


def po_msgids(language: str, domain: str) -> set[str]:
    """Every msgid of a .po file, translated or not (with its msgctxt, joined by EOT)."""
    text = po_path(language, domain).read_text(encoding="utf-8")
    found = re.findall(r'^(?:msgctxt (".*")\n)?msgid (".+")$', text, re.M)
    return {f"{_unquote(context)}\x04{_unquote(msgid)}" if context else _unquote(msgid) for context, msgid in found}
