"""Content-Security-Policy on the server-rendered pages, sent by django-csp's middleware: nothing
is loaded inline, so the policies allow scripts and style sheets only from this origin (plus, for
the apps, the two third parties they need). An injected `<script>` (stored XSS in a menu name,
say) does not run, nothing is sent to an origin not listed, no page frames them, and forms post
only here.

Two policies, each for its path prefixes ("/" alone means the landing page only); every other
path (the API, static files, health checks) gets no header:
- POLICY (CSP_PATHS): the owner panel, the landing page, and the kitchen and board screens.
- APP_POLICY (CSP_APP_PATHS): the agent dashboard and the kiosk app. POLICY plus
  - the video SDK (static/vendor/agora-rtc-sdk-ng, served from here): it talks to the provider's
    servers over https and wss on their own ports (the provider's firewall list: *.agora.io,
    *.sd-rtn.com, *.rtnsvc.com, *.rtesvc.com and their edge subdomains, ports 443 and
    4700-5000 among others, hence `:*`), and runs its audio and stats workers from blob: URLs;
    the media itself flows over WebRTC, which CSP does not govern;
  - the processor's card element (live payments, static/kiosk/payment.js): exactly Stripe's
    documented sources for Stripe.js and Elements: the script from js.stripe.com, its frames from
    js.stripe.com and hooks.stripe.com (3-D Secure), its calls to api.stripe.com.

`style-src-attr 'unsafe-inline'`: some panel pages set `style="..."` attributes, and the video
SDK sets some on elements it creates; attributes cannot run code. Script, style-sheet and
`<style>` elements stay 'self' only. Images may come from https (owners' menu photos and logos
on their own hosts) and data: (the 2FA QR code, the empty favicon). The WebSockets of the live
dashboards and the apps go to this host ('self' covers ws/wss in CSP 3).

django-csp keeps each directive's sources in the order given here; the order of the directives
within the header is its own (it collects them in a set), which a browser does not read.

A kiosk app hosted on its own origin (KIOSK_APP_ORIGINS) is served by that origin, which sends
its own header: docs/deploy.md gives the policy to send there.
"""

from csp.constants import NONE, SELF
from csp.middleware import CSPMiddleware, PolicyParts
from csp.utils import build_policy
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase

Directives = dict[str, list[str]]

STRICT: Directives = {
    "default-src": [SELF],
    "script-src": [SELF],
    "style-src": [SELF],
    "style-src-attr": ["'unsafe-inline'"],
    "img-src": [SELF, "data:", "https:"],
    "font-src": [SELF],
    "connect-src": [SELF],
    "object-src": [NONE],
    "base-uri": [NONE],
    "frame-ancestors": [NONE],
    "form-action": [SELF],
}

VIDEO_PROVIDER_DOMAINS = ("agora.io", "sd-rtn.com", "rtnsvc.com", "rtesvc.com")
VIDEO_SDK: Directives = {
    "connect-src": [f"{scheme}://*.{domain}:*" for domain in VIDEO_PROVIDER_DOMAINS for scheme in ("https", "wss")],
    "worker-src": [SELF, "blob:"],
}
CARD_ELEMENT: Directives = {  # https://docs.stripe.com/security/guide#content-security-policy
    "script-src": ["https://js.stripe.com", "https://*.js.stripe.com"],
    "frame-src": ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"],
    "connect-src": ["https://api.stripe.com"],
}


def combined(*parts: Directives) -> Directives:
    directives: Directives = {}
    for part in parts:
        for name, sources in part.items():
            known = directives.setdefault(name, [])
            known.extend(source for source in sources if source not in known)
    return directives


# The kiosk's shell has a <base> at its static folder (apps/kiosk_app/views.py): this origin only.
APP: Directives = combined({**STRICT, "base-uri": [SELF]}, VIDEO_SDK, CARD_ELEMENT)
NO_POLICY: Directives = {}  # django-csp sends no header for an empty policy

# The header values, as django-csp writes them in this process.
POLICY = build_policy(config=STRICT)
APP_POLICY = build_policy(config=APP)


def _matches(path: str, prefixes: list[str]) -> bool:
    return any(path == prefix if prefix == "/" else path.startswith(prefix) for prefix in prefixes)


def directives_for(path: str) -> Directives:
    if _matches(path, settings.CSP_APP_PATHS):
        return APP
    if _matches(path, settings.CSP_PATHS):
        return STRICT
    return NO_POLICY


class PathPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware, its policy chosen by path (its documented extension point,
    `get_policy_parts`); a view's own `@csp`, `@csp_update` or `@csp_replace` still applies."""

    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        if not report_only and parts.config is None:
            parts.config = directives_for(request.path)
        return parts
