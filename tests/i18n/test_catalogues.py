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
from apps.menu.labels import LANGUAGES as MENU_LANGUAGES
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


# The English-only screens' scripts, by their context: the agent dashboard, the owner panel, and
# the kitchen display and order board (with the display app they share).
SCRIPTS = {
    "agent": sorted((ROOT / "static" / "agent").glob("*.js")),
    "panel": sorted((ROOT / "static" / "panel").glob("*.js")),
    "display": [
        *sorted((ROOT / "static" / "kitchen").glob("*.js")),
        *sorted((ROOT / "static" / "board").glob("*.js")),
        ROOT / "static" / "common" / "display-app.js",
        ROOT / "static" / "common" / "display-api.js",
    ],
}
SCREEN_WORD = {context: re.compile(rf'\bn?pgettext\(\s*"{context}",\s*"((?:[^"\\]|\\.)*)"') for context in SCRIPTS}


@pytest.mark.parametrize(("context", "least"), [("agent", 100), ("panel", 8), ("display", 20)])
def test_every_agent_dashboard_panel_and_display_script_word_is_in_the_english_catalogue_only(context: str, least: int):
    said = {
        f"{context}\x04{msgid}"
        for path in SCRIPTS[context]
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


@pytest.mark.parametrize("context", list(SCRIPTS))
def test_the_agent_dashboard_panel_and_display_scripts_say_no_sentence_outside_their_catalogue(context: str):
    call = re.compile(rf'\bn?pgettext\(\s*"{context}",\s*"(?:[^"\\]|\\.)*"(?:,\s*"(?:[^"\\]|\\.)*")?')
    bare = {
        f"{path.name}: {literal}"
        for path in SCRIPTS[context]
        for literal in bare_sentences(path.read_text(encoding="utf-8"), call)
    }
    assert not bare, f'wrap these in pgettext("{context}", …) and run makemessages -d djangojs: {sorted(bare)}'


TEMPLATE_WORD = re.compile(r"""\{% translate (?:"([^"]*)"|'([^']*)') %\}""")
TEMPLATE_BLOCK = re.compile(r"\{% blocktranslate[^%]*%\}(.*?)\{% endblocktranslate %\}", re.S)


def block_msgid(body: str) -> str:
    """A blocktranslate's msgid (its singular, when it has a plural): its {{ name }} as %(name)s,
    as makemessages writes it."""
    return re.sub(r"\{\{ (\w+) \}\}", r"%(\1)s", body.split("{% plural %}")[0])


TEMPLATES = sorted(
    [
        *(path for path in (ROOT / "templates").rglob("*") if path.suffix in {".html", ".txt"}),
        ROOT / "static" / "kitchen" / "index.html",  # the screens' shells, rendered as templates
        ROOT / "static" / "board" / "index.html",
    ]
)


def test_every_page_and_mail_template_word_is_in_the_english_catalogue_only():
    texts = [page.read_text("utf-8") for page in TEMPLATES]
    said = {double or single for text in texts for double, single in TEMPLATE_WORD.findall(text)}
    blocks = {block_msgid(body) for text in texts for body in TEMPLATE_BLOCK.findall(text)}
    assert len(said) > 300 and len(blocks) > 50, "the scan finds the pages' words"
    said |= blocks
    missing = said - po_msgids("en", "django")
    assert not missing, f"not in locale/en/LC_MESSAGES/django.po (makemessages -d django): {sorted(missing)}"
    for language in ("es", "fr", "de"):
        # The customer's receipt and the kitchen's ticket are the server's words in four languages.
        assert all(msgid.startswith(("receipt\x04", "ticket\x04")) for msgid in po_msgids(language, "django"))


GETTEXT = {"_", "gettext", "gettext_lazy", "gettext_noop"}
# The panel's Python, and the other modules whose words it (or the landing page) shows.
PANEL_PYTHON = sorted(
    [
        *(path for path in (ROOT / "apps" / "panel").rglob("*.py") if "migrations" not in path.parts),
        ROOT / "apps" / "menu" / "labels.py",
        ROOT / "apps" / "demo" / "landing.py",
    ]
)


def said_in(source: str) -> set[str]:
    """The msgids of a module's gettext calls (single or double quotes, across lines, implicitly
    joined literals), as xgettext reads them."""
    return {
        node.args[0].value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in GETTEXT
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    }


def test_every_panel_message_label_and_help_text_is_in_the_english_catalogue():
    said = {msgid for source in PANEL_PYTHON for msgid in said_in(source.read_text("utf-8"))}
    assert len(said) > 150, "the scan finds the panel's messages, labels and help texts"
    missing = said - po_msgids("en", "django")
    assert not missing, f"not in locale/en/LC_MESSAGES/django.po (makemessages -d django): {sorted(missing)}"


# Calls whose words are for the developer: a 404's reason (the 404 page never shows it), an
# assertion, a raised programming error, a log line.
AUTONYMS = set(MENU_LANGUAGES.values())  # each language's own name, the same in every language
FOR_THE_DEVELOPER = {"Http404", "ValueError", "TypeError", "RuntimeError", "LookupError", "ImproperlyConfigured"}


def _is(node: ast.expr | None, value: str) -> bool:
    return isinstance(node, ast.Constant) and node.value == value


def bare_python_words(source: str) -> list[str]:
    """The string literals of a module that look like words a person reads (two words, or one
    capitalised word) outside a gettext call, a docstring and the developer's calls."""
    tree = ast.parse(source)
    skipped: set[int] = set()
    for node in ast.walk(tree):
        called = node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else ""
        if called in GETTEXT | FOR_THE_DEVELOPER or (isinstance(node, ast.Assert) and node.msg is not None):
            skipped |= {id(inner) for inner in ast.walk(node)}
        if isinstance(node, ast.Dict):  # an error envelope's message is the API's English (the spec's)
            skipped |= {id(value) for key, value in zip(node.keys, node.values, strict=True) if _is(key, "message")}
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and ast.get_docstring(node) is not None:
            skipped.add(id(node.body[0].value))  # type: ignore[attr-defined]
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skipped
        and node.value not in AUTONYMS
        and (re.search(r"[A-Za-z']{2,} [A-Za-z']{2,}", node.value) or re.fullmatch(r"\W*[A-Z][a-z']+\W*", node.value))
    ]


def test_the_bare_python_word_scan_finds_words_outside_gettext():
    source = (
        '"""Not this."""\nLABELS = {"a": "Paid", "b": _("Refunded")}\n'
        'def f(x):\n    assert x, "not this either"\n    raise Http404("No such order.")\n'
        '    messages.error(request, f"The order {x} is gone.")\n'
        '    return {"message": "Not this.", "x": "hello world"}\n'
    )
    assert sorted(bare_python_words(source)) == [" is gone.", "Paid", "The order ", "hello world"]


def test_the_panel_says_no_python_word_outside_its_catalogue():
    bare = {
        f"{source.relative_to(ROOT)}: {literal}"
        for source in PANEL_PYTHON
        for literal in bare_python_words(source.read_text("utf-8"))
    }
    assert not bare, f"wrap these in gettext_lazy or gettext and run makemessages -d django: {sorted(bare)}"


# What a template holds that no person reads as words: comments, tags, variables (their words come
# from the view, translated there), scripts and styles, and the code shown in <code>, <pre> and
# <kbd> (paths, commands, header names). What is left between the tags, and the attributes people
# read, must be words of a {% translate %} or {% blocktranslate %}.
NOT_WORDS = [
    re.compile(pattern, re.S)
    for pattern in (
        r"\{#.*?#\}",
        r"\{% comment %\}.*?\{% endcomment %\}",
        r"\{% blocktranslate.*?\{% endblocktranslate %\}",
        r"<(script|style|code|pre|kbd)\b.*?</\1>",
        r"<!--.*?-->",
        r"\{%.*?%\}",
        r"\{\{.*?\}\}",
    )
]
READ_ATTRIBUTE = re.compile(r"""\b(?:title|alt|placeholder|aria-label|data-label)=(?:"([^"]*)"|'([^']*)')""")
SYMBOLS = {"ms", "s"}  # units after a number, as the agent's and panel's scripts leave them


def unmarked_words(template: str) -> list[str]:
    text = template
    for pattern in NOT_WORDS:
        text = pattern.sub(" ", text)
    found = [double or single for double, single in READ_ATTRIBUTE.findall(text)]
    found += re.split(r"<[^>]*>|\n", text)
    pieces = [" ".join(piece.split()) for piece in found]
    return [piece for piece in pieces if any(re.search(r"[A-Za-z]{2,}", word) for word in set(piece.split()) - SYMBOLS)]


def test_the_unmarked_word_scan_finds_words_outside_translate_tags():
    page = (
        '{% load i18n %}<h1 title="Orders">{% translate "Orders" %}</h1>\n<p>Paid {{ count }} · 3 ms</p>'
        "{% blocktranslate %}Hello {{ name }}{% endblocktranslate %}<code>make run</code>{# Not this #}"
        '<script>const x = "Not this";</script><input placeholder="{% translate \'Name\' %}">'
    )
    assert unmarked_words(page) == ["Orders", "Paid · 3 ms"]


def test_every_template_says_its_words_through_the_catalogue():
    assert len(TEMPLATES) > 40, "the scan finds the templates"
    unmarked = {
        f"{page.relative_to(ROOT)}: {words}" for page in TEMPLATES for words in unmarked_words(page.read_text("utf-8"))
    }
    assert not unmarked, f"mark these with {{% translate %}} or {{% blocktranslate %}}: {sorted(unmarked)}"


def refusals() -> tuple[set[str], list[str]]:
    """The message of each `DomainError(code, message)` and `require_choice(..., message=...)` in
    apps/ (the msgids the project's makemessages reads there) and the ones formatted in place or
    left unmarked, which no catalogue can hold."""
    said: set[str] = set()
    formatted: list[str] = []
    for source in sorted((ROOT / "apps").rglob("*.py")):
        if "migrations" in source.parts:
            continue
        for node in ast.walk(ast.parse(source.read_text("utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id == "require_choice":  # its message= is marked where it is written
                [message] = [keyword.value for keyword in node.keywords if keyword.arg == "message"]
                if isinstance(message, ast.Call) and ast.unparse(message.func) == "gettext_noop":
                    said |= said_in(ast.unparse(message))
                else:
                    formatted.append(f"{source.relative_to(ROOT)}:{node.lineno}: unmarked {ast.unparse(message)}")
                continue
            if node.func.id != "DomainError":
                continue
            message = node.args[1] if len(node.args) > 1 else None
            if isinstance(message, ast.Constant) and isinstance(message.value, str):
                said.add(message.value)
            elif (
                isinstance(message, ast.JoinedStr | ast.BinOp)
                or isinstance(message, ast.Call)
                and not (isinstance(message.func, ast.Name) and message.func.id in GETTEXT)
            ):
                formatted.append(f"{source.relative_to(ROOT)}:{node.lineno}: {ast.unparse(message)}")
            elif isinstance(message, ast.Call):
                said |= said_in(ast.unparse(message))
        said |= said_in(source.read_text("utf-8")) if "gettext_noop" in source.read_text("utf-8") else set()
    return said, formatted


def test_every_service_refusal_is_a_msgid_of_the_english_catalogue():
    said, formatted = refusals()
    assert len(said) > 90, "the scan finds the services' refusals"
    assert not formatted, (
        "a DomainError's message is a sentence with {name} placeholders and params={...} (the panel "
        f"translates the sentence, then fills it): {formatted}"
    )
    assert {"Choose eat in or take away.", "Unknown agent status.", "Must be one of: {choices}."} <= said
    missing = said - po_msgids("en", "django")
    assert not missing, f"not in locale/en/LC_MESSAGES/django.po (makemessages -d django): {sorted(missing)}"
    for language in ("es", "fr", "de"):
        assert not said & po_msgids(language, "django"), "the panel's words are English-only"


def test_every_model_choice_label_is_a_msgid_of_the_english_catalogue():
    """The labels of the models' codes, which the Django admin's lists and filters show, are
    gettext_lazy (the admin's language); the owner API's scopes say the API's English, and the
    panel's and the admin's key forms say SCOPE_LABELS."""
    from django.db.models import IntegerChoices, TextChoices
    from django.utils.functional import Promise

    from apps.owner_api.scopes import ALL_SCOPES, SCOPE_LABELS, Scope

    kinds = [kind for base in (TextChoices, IntegerChoices) for kind in base.__subclasses__()]
    ours = [kind for kind in kinds if kind.__module__.startswith("apps.") and kind is not Scope]
    assert len(ours) > 20, "the scan finds the models' choices"
    members = [(kind, member) for kind in ours for member in kind]
    unmarked = [f"{kind.__name__}.{member.name}" for kind, member in members if not isinstance(member.label, Promise)]
    assert not unmarked, f"give these members a gettext_lazy label: {unmarked}"
    labels = {str(member.label) for _, member in members}
    assert all(isinstance(label, Promise) for label in SCOPE_LABELS.values())
    assert all(isinstance(label, str) and not isinstance(label, Promise) for label in ALL_SCOPES.values())
    missing = (labels | set(ALL_SCOPES.values())) - po_msgids("en", "django")
    assert not missing, f"not in locale/en/LC_MESSAGES/django.po (makemessages -d django): {sorted(missing)}"


# The shared modules every screen loads: their words come from the screen that loads them.
SHARED = [ROOT / "static" / "common" / "http.js", ROOT / "static" / "common" / "report.js"]


def test_the_shared_http_and_report_modules_say_no_sentence_of_their_own():
    nothing = re.compile(r"(?!)")
    bare = {f"{path.name}: {text}" for path in SHARED for text in bare_sentences(path.read_text("utf-8"), nothing)}
    assert not bare, f"take these words from the screen's catalogue (as sendJson's unreachable and answered): {bare}"


def test_a_refusal_says_its_sentence_filled_to_the_api_and_translated_then_filled_to_the_panel(monkeypatch):
    from apps.core.errors import DomainError, ErrorCode
    from apps.panel import pages

    refusal = DomainError(
        ErrorCode.REFUND_NOT_ALLOWED, "A {status} order cannot be refunded.", params={"status": "paid"}
    )
    assert refusal.message == str(refusal) == "A paid order cannot be refunded."
    assert DomainError(ErrorCode.NOT_FOUND, "No {such} order.").message == "No {such} order."  # no params: as written
    monkeypatch.setattr(
        pages, "gettext", {"A {status} order cannot be refunded.": "Pedido {status}: sin reembolso."}.get
    )
    assert pages.error_text(refusal) == "Pedido paid: sin reembolso."
