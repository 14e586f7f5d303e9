"""Serves the two screens, /kitchen/ and /board/: plain static apps (static/kitchen/, static/board/)
whose shell's relative links (main.js, the style sheet, the vendored pusher-js) are pointed at the
static files here. The shell is rendered as a Django template for its words (`{% translate %}`,
English msgids of the catalogue: docs/decisions/words.md). Not with a <base> as the kiosk app
does: these pages are under the Content-Security-Policy, whose `base-uri 'none'` refuses one. The
page also sets Django's CSRF cookie: a signed-in user's writes carry it."""

import posixpath
import re
from collections.abc import Callable

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.template import engines
from django.templatetags.static import static
from django.utils.html import escape
from django.views.decorators.csrf import ensure_csrf_cookie


def _shell(folder: str) -> str:
    name = f"{folder}/index.html"
    path = finders.find(name) or str(settings.STATIC_ROOT / name)
    try:
        with open(path, encoding="utf-8") as shell:
            return engines["django"].from_string(shell.read()).render()
    except OSError:
        raise Http404(f"The {folder} screen is not installed.") from None


RELATIVE_LINK = re.compile(r'(\s(?:src|href)=")(?![a-z][a-z0-9+.-]*:|/|#)([^"]+)"')


def _screen(folder: str) -> Callable[[HttpRequest], HttpResponse]:
    @ensure_csrf_cookie
    def view(request: HttpRequest) -> HttpResponse:
        html = RELATIVE_LINK.sub(
            lambda link: f'{link[1]}{escape(static(posixpath.normpath(f"{folder}/{link[2]}")))}"', _shell(folder)
        )
        response = HttpResponse(html, content_type="text/html; charset=utf-8")
        response["Cache-Control"] = "no-cache"
        return response

    return view


kitchen_screen = _screen("kitchen")
board_screen = _screen("board")
