"""The gettext catalogues (locale/<language>/LC_MESSAGES): the kiosk's words (djangojs.po, message
keys as msgids), the receipt's and the kitchen ticket's (django.po, English msgids in the "receipt"
and "ticket" contexts), in the kiosk's four languages. A word missing from a catalogue,
untranslated, with other placeholders, or a committed .mo that says something else than its .po
fails here; the kiosk's own key checks are in tests/js/kiosk-messages.test.js."""

import ast
import gettext
import re

import pytest
from django.test import Client

from apps.menu.labels import ALLERGENS, DIETARY
from apps.orders.receipt_words import LANGUAGES as RECEIPT_LANGUAGES
from apps.orders.receipt_words import MESSAGES, ReceiptWords, words_in
from apps.printing.ticket_words import MESSAGES as TICKET_MESSAGES
from apps.printing.ticket_words import TicketWords, ticket_words_in
from tests.support.po import LANGUAGES, LOCALE, english_comments, parse_po, po_entries, po_msgids, po_path
from tests.support.processes import ROOT

DOMAINS = ("django", "djangojs")


def placeholders(text: str) -> list[str]:
    return sorted(re.findall(r"\{(\w+)\}", text))


def compiled(language: str, domain: str) -> gettext.GNUTranslations:
    with open(LOCALE / language / "LC_MESSAGES" / f"{domain}.mo", "rb") as mo:
        return gettext.GNUTranslations(mo)


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_each_committed_mo_says_what_its_po_says(language, domain):
    entries = po_entries(language, domain)
    assert entries, f"{po_path(language, domain)} holds no translation"
    mo = compiled(language, domain)
    for key, text in entries.items():
        context, _, msgid = key.rpartition("\x04")
        said = mo.pgettext(context, msgid) if context else mo.gettext(msgid)
        assert said == (text or msgid), f"{language}/{domain}.mo is stale for {msgid!r}: compilemessages"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_receipt_word_is_in_each_languages_catalogue_translated(language):
    entries = po_entries(language, "django")
    english = words_in("en")  # the msgids: an English word the catalogue lacks reads itself
    for name in MESSAGES:
        key = f"receipt\x04{english[name]}"
        assert key in entries, f"{name} is missing from {language}/django.po: makemessages -d django"
        if language != "en":
            assert entries[key], f"{name} is not translated in {language}/django.po"
            assert placeholders(entries[key]) == placeholders(key), f"{language} {name}"
    words = words_in(language)
    assert words["card_ending"].format(brand="Visa", last4="4242").count("4242") == 1


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_kitchen_ticket_word_is_in_each_languages_catalogue_translated(language):
    assert set(TICKET_MESSAGES) == set(TicketWords.__annotations__)
    entries = po_entries(language, "django")
    english = ticket_words_in("en")
    for name in TICKET_MESSAGES:
        key = f"ticket\x04{english[name]}"
        assert key in entries, f"{name} is missing from {language}/django.po: makemessages -d django"
        if language != "en":
            assert entries[key], f"{name} is not translated in {language}/django.po"
            assert placeholders(entries[key]) == placeholders(key), f"{language} {name}"


def test_the_receipt_reads_each_language_from_its_catalogue():
    assert RECEIPT_LANGUAGES == LANGUAGES
    assert set(MESSAGES) == set(ReceiptWords.__annotations__)
    assert words_in("es")["tax"] == "Impuestos"
    assert words_in("fr")["take_away"] == "À emporter"
    assert words_in("de")["subject"] == "Ihr Beleg von {business}, Bestellung {number}"
    assert words_in("en")["eat_in"] == "Eat in"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_menus_allergen_and_dietary_codes_have_kiosk_words(language):
    entries = po_entries(language, "djangojs")
    for key in [f"allergen.{code}" for code in ALLERGENS] + [f"dietary.{code}" for code in DIETARY]:
        assert entries.get(key), f"{key} is missing from {language}/djangojs.po"


@pytest.mark.parametrize("language", ["es", "fr", "de"])
def test_each_kiosk_key_shows_translators_its_english(language):
    english = po_entries("en", "djangojs")
    assert english_comments(language) == {key: text.replace("\n", " ") for key, text in english.items()}, (
        "makemessages -d djangojs writes these comments"
    )


def test_the_po_reader_keeps_translations_only():
    po = "\n".join(
        [
            'msgid ""',
            'msgstr "Language: es\\n"',
            "",
            "#, fuzzy",
            'msgid "a"',
            'msgstr "b"',
            "",
            'msgctxt "receipt"',
            'msgid "Tax"',
            'msgstr ""',
            '"Imp\\"uestos\\n"',
            "",
            '#~ msgid "old"',
            '#~ msgstr "x"',
        ]
    )
    assert parse_po(po) == {"receipt\x04Tax": 'Imp"uestos\n'}


@pytest.mark.django_db
def test_the_kiosk_catalogue_is_served_per_language_as_django_json():
    client = Client()
    spanish = client.get("/api/public/i18n/es", HTTP_ORIGIN="http://localhost:5173")
    assert spanish.status_code == 200
    assert spanish["Cache-Control"] == "public, max-age=300"
    body = spanish.json()
    assert body["catalog"]["order.tax"] == "Impuestos"
    assert body["catalog"].keys() == po_entries("es", "djangojs").keys()  # the project's words only
    assert client.get("/api/public/i18n/de").json()["catalog"]["order.total"] == "Gesamt"
    assert client.get("/api/public/i18n/pt").status_code == 404


SCREEN_WORD = {
    context: re.compile(rf'\bn?pgettext\(\s*"{context}",\s*"((?:[^"\\]|\\.)*)"') for context in ("agent", "panel")
}


@pytest.mark.parametrize(("context", "least"), [("agent", 100), ("panel", 8)])
def test_every_agent_dashboard_and_panel_script_word_is_in_the_english_catalogue_only(context: str, least: int):
    said = {
        f"{context}\x04{msgid}"
        for path in (ROOT / "static" / context).glob("*.js")
        for msgid in SCREEN_WORD[context].findall(path.read_text(encoding="utf-8"))
    }
    assert len(said) > least, "the scan finds the screen's words"
    missing = said - po_msgids("en", "djangojs")
    assert not missing, f"not in locale/en/LC_MESSAGES/djangojs.po (makemessages -d djangojs): {sorted(missing)}"
    for language in ("es", "fr", "de"):
        assert not {msgid for msgid in po_msgids(language, "djangojs") if msgid.startswith(f"{context}\x04")}


JS_LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`|\'((?:[^\'\\\n]|\\.)*)\'')
JS_COMMENT = re.compile(r"/\*.*?\*/|(?:^|(?<=\s))//[^\n]*", re.S | re.M)
AGENT_CALL = re.compile(r'\bn?pgettext\(\s*"agent",\s*"(?:[^"\\]|\\.)*"(?:,\s*"(?:[^"\\]|\\.)*")?')
# Literals that are for the developer (what was being done, for the console and thrown errors) or
# for the page's code (CSS classes, key names), not for the agent's eyes: what precedes them on
# their line.
NOT_READ = re.compile(
    r"(?:logFailure\(|console\.\w+\(|new Error\(|[hH]eaders, |querySelector\w*\("
    r"|class(?:Name =|:) [^,]*|\bkey [!=]== )$"
)
KEY_NAMES = {"Enter", "Escape"}


def bare_sentences(source: str, call: re.Pattern[str]) -> list[str]:
    """The literals of a browser module that look like words a person reads (two words, or one
    capitalised word) outside a gettext call: a sentence the catalogue cannot know of."""
    text = call.sub("", JS_COMMENT.sub("", source)).replace('"use strict"', "")
    found = []
    for match in JS_LITERAL.finditer(text):
        literal = next(group for group in match.groups() if group is not None)
        if NOT_READ.search(text[text.rfind("\n", 0, match.start()) + 1 : match.start()]):
            continue
        words = re.sub(r"\$\{[^}]*\}", " ", literal)
        sentence = re.search(r"[A-Za-z']{2,} [A-Za-z']{2,}", words)
        word = re.fullmatch(r"\W*[A-Z][a-z']+\W*", words) and words.strip() not in KEY_NAMES
        if sentence or word:
            found.append(literal)
    return found


def test_the_bare_sentence_scan_finds_words_outside_gettext():
    bare = 'el("button", { text: "Sign in" }); x = `Hello ${name}`; y = "Accept";'
    assert bare_sentences(bare, AGENT_CALL) == ["Sign in", "Hello ${name}", "Accept"]
    said = 'pgettext("agent", "Sign in"); logFailure("reading it", e); el("b", { class: ok ? "primary accept" : "a" });'
    code = '// Not this\nif (event.key === "Enter") go(); emit("SessionIncoming");'
    assert bare_sentences(said + code, AGENT_CALL) == []


@pytest.mark.parametrize("context", ["agent", "panel"])
def test_the_agent_dashboard_and_panel_scripts_say_no_sentence_outside_their_catalogue(context: str):
    call = re.compile(rf'\bn?pgettext\(\s*"{context}",\s*"(?:[^"\\]|\\.)*"(?:,\s*"(?:[^"\\]|\\.)*")?')
    bare = {
        f"{path.name}: {literal}"
        for path in (ROOT / "static" / context).glob("*.js")
        for literal in bare_sentences(path.read_text(encoding="utf-8"), call)
    }
    assert not bare, f'wrap these in pgettext("{context}", …) and run makemessages -d djangojs: {sorted(bare)}'


TEMPLATE_WORD = re.compile(r"""\{% translate (?:"([^"]*)"|'([^']*)') %\}""")
TEMPLATE_BLOCK = re.compile(r"\{% blocktranslate[^%]*%\}(.*?)\{% endblocktranslate %\}", re.S)


def block_msgid(body: str) -> str:
    """A blocktranslate's msgid (its singular, when it has a plural): its {{ name }} as %(name)s,
    as makemessages writes it."""
    return re.sub(r"\{\{ (\w+) \}\}", r"%(\1)s", body.split("{% plural %}")[0])


def test_every_panel_and_agent_page_word_is_in_the_english_catalogue_only():
    pages = [
        *(ROOT / "templates" / "panel").glob("*.html"),
        *(ROOT / "templates" / "demo_processor").glob("*.html"),
        ROOT / "templates" / "agent" / "index.html",
        ROOT / "templates" / "404.html",
    ]
    texts = [page.read_text("utf-8") for page in pages]
    said = {double or single for text in texts for double, single in TEMPLATE_WORD.findall(text)}
    blocks = {block_msgid(body) for text in texts for body in TEMPLATE_BLOCK.findall(text)}
    assert len(said) > 300 and len(blocks) > 30, "the scan finds the pages' words"
    said |= blocks
    missing = said - po_msgids("en", "django")
    assert not missing, f"not in locale/en/LC_MESSAGES/django.po (makemessages -d django): {sorted(missing)}"
    for language in ("es", "fr", "de"):
        # The customer's receipt and the kitchen's ticket are the server's words in four languages.
        assert all(msgid.startswith(("receipt\x04", "ticket\x04")) for msgid in po_msgids(language, "django"))


PYTHON_WORD = re.compile(r"""\b_\(\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\s*\)""")


def test_every_panel_message_label_and_help_text_is_in_the_english_catalogue():
    panel = ROOT / "apps" / "panel"
    sources = [*(panel / "views").glob("*.py"), panel / "forms.py", panel / "menu_forms.py"]
    said = {
        ast.literal_eval(literal) for source in sources for literal in PYTHON_WORD.findall(source.read_text("utf-8"))
    }
    assert len(said) > 70, "the scan finds the panel's messages, labels and help texts"
    missing = said - po_msgids("en", "django")
    assert not missing, f"not in locale/en/LC_MESSAGES/django.po (makemessages -d django): {sorted(missing)}"
