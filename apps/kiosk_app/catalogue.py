"""The kiosk's words as Django's JSON catalogue (JSONCatalog, the djangojs domain of
locale/<language>/LC_MESSAGES): /api/public/i18n/<language>, one per kiosk language. The kiosk
loads the four once when its code loads (static/kiosk/messages.js), so no word waits on the
network and a language button redraws at once. Open to any kiosk (no device headers): the words
are the same for every business, and the kiosk needs them on its pairing screen already."""

from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation
from django.views.i18n import JSONCatalog

# The languages the kiosk offers (static/kiosk/messages.js LOCALES), by primary subtag.
KIOSK_LANGUAGES = ("en", "es", "fr", "de")


class KioskCatalogueView(JSONCatalog):
    packages = ["project"]  # any: get_paths below names the folders

    def get_paths(self, packages: list[str]) -> list[str]:
        """The project's own catalogues (LOCALE_PATHS) alone: not the admin's, which the
        catalogue of every installed app would add."""
        return [str(path) for path in settings.LOCALE_PATHS]

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        language = kwargs.pop("language")
        if language not in KIOSK_LANGUAGES:
            raise Http404("The kiosk does not speak this language.")
        with translation.override(language):
            response = super().get(request, *args, **kwargs)
        # Loaded once per start of the kiosk app; a release's new words show within minutes.
        response["Cache-Control"] = "public, max-age=300"
        return response
