"""Content-Security-Policy on the server-rendered pages (issue 24): the owner panel and the landing
page load nothing inline, so their policy allows scripts and style sheets only from this origin.
An injected `<script>` (stored XSS in a menu name, say) does not run, nothing is sent to another
origin, no page frames them, and forms post only here.

`style-src-attr 'unsafe-inline'`: some panel pages (the menu editor's) still set `style="..."`
attributes; those cannot run code. Script, style-sheet and `<style>` elements stay 'self' only.
Images may come from https (owners' menu photos on their own hosts) and data: (the 2FA QR code).
The WebSocket of the live dashboard is this origin ('self' covers ws/wss in CSP 3).

Paths: CONTENT_SECURITY_POLICY_PATHS (prefixes; "/" alone means the landing page only). The agent
dashboard and the kiosk app (static shells with their own modules, a video SDK and a processor's
card library) are not covered yet: see docs/decisions.md.
"""

from django.conf import settings
from django.http import HttpRequest, HttpResponse

POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "style-src-attr 'unsafe-inline'",
        "img-src 'self' data: https:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "form-action 'self'",
    ]
)


def covered(path: str) -> bool:
    return any(path == prefix if prefix == "/" else path.startswith(prefix) for prefix in settings.CSP_PATHS)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if covered(request.path) and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = POLICY
        return response
