"""The owner's default attract line is the kiosk's own sentence (static/kiosk/messages.js,
`attract.message`): the kiosk recognises it and shows it in the customer's language instead."""

import json

from apps.accounts.models import Business
from tests.support.processes import ROOT


def test_the_models_default_attract_line_is_the_english_catalogue_sentence():
    default = Business._meta.get_field("attract_message").default
    catalogue = (ROOT / "static" / "kiosk" / "messages.js").read_text(encoding="utf-8")
    english = catalogue[catalogue.index("const en = {") : catalogue.index("const es = {")]
    assert f'"attract.message": {json.dumps(default)},' in english
