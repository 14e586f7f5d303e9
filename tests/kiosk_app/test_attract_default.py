"""The owner's default attract line is the kiosk's own sentence (the English of `attract.message`
in locale/en/LC_MESSAGES/djangojs.po): the kiosk recognises it and shows it in the customer's
language instead."""

import gettext

from apps.accounts.models import Business
from tests.support.processes import ROOT


def test_the_models_default_attract_line_is_the_english_catalogue_sentence():
    default = Business._meta.get_field("attract_message").default
    with open(ROOT / "locale" / "en" / "LC_MESSAGES" / "djangojs.mo", "rb") as compiled:
        english = gettext.GNUTranslations(compiled)
    assert english.gettext("attract.message") == default
