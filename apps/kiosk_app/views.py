"""Serves the kiosk app at /kiosk/. The app is plain static files (static/kiosk/) that run
unchanged on any origin; here the shell is sent as it is, with a <base> pointing at the static
folder so its relative links (config.js, main.js, kiosk.css) load from there."""

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.templatetags.static import static
from django.utils.html import escape

SHELL = "kiosk/index.html"


def _shell_path() -> str | None:
    found = finders.find(SHELL)  # the source folder (make run, tests)
    if found:
        return found
    collected = settings.STATIC_ROOT / SHELL  # production serves the collected copy
    return str(collected) if collected.exists() else None


def kiosk_app(request: HttpRequest) -> HttpResponse:
    path = _shell_path()
    if path is None:
        raise Http404("The kiosk app is not installed.")
    with open(path, encoding="utf-8") as shell:
        html = shell.read()
    base = f'<base href="{escape(static("kiosk/"))}">'
    html = html.replace("<head>", f"<head>\n  {base}", 1)
    response = HttpResponse(html, content_type="text/html; charset=utf-8")
    response["Cache-Control"] = "no-cache"  # a new release shows on the next load
    return response
