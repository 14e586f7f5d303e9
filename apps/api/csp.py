"""Content-Security-Policy on the server-rendered pages, so that injected markup cannot run:
nothing is loaded inline, so the policies allow scripts and style sheets only from this origin
(plus, for the apps, the two third parties they need). An injected `<script>` (stored XSS in a
menu name, say) does not run, nothing is sent to an origin not listed, no page frames them, and
forms post only here.

Two policies, each for its path prefixes ("/" alone means the landing page only):
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

A kiosk app hosted on its own origin (KIOSK_APP_ORIGINS) is served by that origin, which sends
its own header: docs/deploy.md gives the policy to send there.
"""

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from apps.api.middleware import GetResponse

STRICT = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "style-src-attr": ["'unsafe-inline'"],
    "img-src": ["'self'", "data:", "https:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "frame-ancestors": ["'none'"],
    "form-action": ["'self'"],
}

VIDEO_PROVIDER_DOMAINS = ("agora.io", "sd-rtn.com", "rtnsvc.com", "rtesvc.com")
VIDEO_SDK = {
    "connect-src": [f"{scheme}://*.{domain}:*" for domain in VIDEO_PROVIDER_DOMAINS for scheme in ("https", "wss")],
    "worker-src": ["'self'", "blob:"],
}
CARD_ELEMENT = {  # https://docs.stripe.com/security/guide#content-security-policy
    "script-src": ["https://js.stripe.com", "https://*.js.stripe.com"],
    "frame-src": ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"],
    "connect-src": ["https://api.stripe.com"],
}


def combined(*parts: dict[str, list[str]]) -> str:
    directives: dict[str, list[str]] = {}
    for part in parts:
        for name, sources in part.items():
            known = directives.setdefault(name, [])
            known.extend(source for source in sources if source not in known)
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in directives.items())


POLICY = combined(STRICT)
# The kiosk's shell has a <base> at its static folder (apps/kiosk_app/views.py): this origin only.
APP_POLICY = combined({**STRICT, "base-uri": ["'self'"]}, VIDEO_SDK, CARD_ELEMENT)


def _matches(path: str, prefixes: list[str]) -> bool:
    return any(path == prefix if prefix == "/" else path.startswith(prefix) for prefix in prefixes)


def policy_for(path: str) -> str | None:
    if _matches(path, settings.CSP_APP_PATHS):
        return APP_POLICY
    if _matches(path, settings.CSP_PATHS):
        return POLICY
    return None


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = policy_for(request.path)
        if policy is not None and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy
        return response
