"""`manage.py makemessages`: Django's, taught the kiosk's message keys.

The kiosk's djangojs.po files have message keys as msgids ("order.subtotal"; en.po holds the
English, docs/decisions/words.md "Gettext catalogues"). xgettext finds a key as the second
argument of t(locale, key), the first of session.js's say(key) and gettext_noop(key), the second
of payment.js's words(locale, key); in Python, the message of each DomainError(code, message) (the
API's English, which the owner panel translates); the keys named outside the code (the page's
data-i18n, data-i18n-label and data-reply attributes, the menu's allergen and dietary codes) are
handed to it as a list written for the run. The owner's, agent's and kitchen's screens are
English-only: their words (English msgids; in djangojs.po the "agent", "panel" and "display"
contexts, in django.po any but "receipt" and "ticket", the printed tickets) are kept out of the
other languages' files. Each es, fr and de entry then gets its English as a translator's comment,
so a translator's tool shows what the key says.

    .venv/bin/python manage.py makemessages -d djangojs -l en -l es -l fr -l de
    .venv/bin/python manage.py makemessages -d django -l en -l es -l fr -l de
    .venv/bin/python manage.py compilemessages   # then commit the .po and .mo files
"""

import re
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError
from django.core.management.commands import makemessages
from django.core.management.utils import popen_wrapper

from apps.menu.labels import ALLERGENS, DIETARY

KIOSK = Path(settings.BASE_DIR) / "static" / "kiosk"
NAMED_KEYS = KIOSK / "catalogue-keys.gen.js"  # exists only during a run
PAGE_KEY = re.compile(r'data-(?:i18n|i18n-label|reply)="([^"]+)"')
ENGLISH_COMMENT = "# English: "
NOT_CODE = ["static/vendor/*", "static/*/vendor/*", "tests/*", "bench/*", "deploy/*", "var/*", "node_modules/*"]


def named_keys() -> list[str]:
    page = (KIOSK / "index.html").read_text(encoding="utf-8")
    menu = [f"allergen.{code}" for code in ALLERGENS] + [f"dietary.{code}" for code in DIETARY]
    return list(dict.fromkeys(PAGE_KEY.findall(page) + menu))


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=t:2",
        "--keyword=say:1",
        "--keyword=words:2",
        "--keyword=DomainError:2",  # a service's refusal: the API's English, the panel's msgid
    ]

    def handle(self, *args: Any, **options: Any) -> None:
        options["ignore_patterns"] = [*options.get("ignore_patterns", []), *NOT_CODE]
        options["no_wrap"] = True  # one line an entry: diffs stay small and _translations reads them
        domain = options.get("domain")
        if domain == "djangojs":
            lines = [
                f'gettext_noop("{key}"); // static/kiosk/index.html or apps/menu/labels.py' for key in named_keys()
            ]
            NAMED_KEYS.write_text("\n".join(lines) + "\n", encoding="utf-8")
        try:
            super().handle(*args, **options)
        finally:
            NAMED_KEYS.unlink(missing_ok=True)
        for po in Path(settings.LOCALE_PATHS[0]).glob(f"*/LC_MESSAGES/{domain}.po"):
            if po.parent.parent.name == "en":
                continue
            if domain == "djangojs":
                self._msggrep(po, ["--invert-match", "-J", "-e", "^agent$", "-e", "^panel$", "-e", "^display$"])
                self._english_comments(po)
            else:
                # the customer's receipt and the kitchen's paper (the business's language) stay
                self._msggrep(po, ["-J", "-e", "^receipt$", "-e", "^ticket$"])

    def _msggrep(self, po: Path, selection: list[str]) -> None:
        """Keeps the customer's words only: the owner's and agent's screens are English-only."""
        args = ["msggrep", "--no-wrap", *selection, "-o", str(po), str(po)]
        _, errors, status = popen_wrapper(args)  # as Django's own command runs msgmerge
        if status != makemessages.STATUS_OK:
            raise CommandError(f"msggrep failed on {po}:\n{errors}")

    def _english_comments(self, po: Path) -> None:
        english = _translations(po.parent.parent.parent / "en" / "LC_MESSAGES" / "djangojs.po")
        blocks = po.read_text(encoding="utf-8").split("\n\n")
        for index, block in enumerate(blocks):
            msgid = re.search(r'^msgid "(.+)"$', block, re.M)
            if not msgid or msgid[1] not in english:
                continue
            kept = [line for line in block.split("\n") if not line.startswith(ENGLISH_COMMENT)]
            blocks[index] = "\n".join([ENGLISH_COMMENT + english[msgid[1]], *kept])
        po.write_text("\n\n".join(blocks), encoding="utf-8")


def _translations(po: Path) -> dict[str, str]:
    """msgid -> msgstr of a .po file's one-line entries (the kiosk's keys and sentences)."""
    found = re.findall(r'^msgid "(.+)"\nmsgstr "(.*)"$', po.read_text(encoding="utf-8"), re.M)
    return {msgid: msgstr.replace('\\"', '"') for msgid, msgstr in found if msgstr}
