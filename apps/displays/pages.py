"""Serves the two screens, /kitchen/ and /board/: plain static apps (static/kitchen/,
static/board/) sent as they are, with a <base> pointing at their static folder, like the kiosk
app. The page also sets Django's CSRF cookie: a signed-in user's writes carry it."""

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.templatetags.static import static
from django.utils.html import escape
from django.views.decorators.csrf import ensure_csrf_cookie


def _shell(folder: str) -> str:
    name = f"{folder}/index.html"
    path = finders.find(name) or str(settings.STATIC_ROOT / name)
    try:
        with open(path, encoding="utf-8") as shell:
            return shell.read()
    except OSError:
        raise Http404(f"The {folder} screen is not installed.") from None


def _screen(folder: str):
    @ensure_csrf_cookie
    def view(request: HttpRequest) -> HttpResponse:
        html = _shell(folder).replace("<head>", f'<head>\n  <base href="{escape(static(folder + "/"))}">', 1)
        response = HttpResponse(html, content_type="text/html; charset=utf-8")
        response["Cache-Control"] = "no-cache"
        return response

    return view


kitchen_screen = _screen("kitchen")
board_screen = _screen("board")
