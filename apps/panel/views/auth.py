"""Sign-in for owners and managers (password, then TOTP when enrolled), sign-out, and the
user's own TOTP enrolment with a QR code."""

import base64
from io import BytesIO

import qrcode
import qrcode.image.svg
from django.contrib import messages
from django.contrib.auth import login as django_login
from django.contrib.auth import logout as django_logout
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_otp import devices_for_user
from django_otp import login as otp_login

from apps.accounts import selectors as account_selectors
from apps.accounts import services as account_services
from apps.accounts.backends import SIGN_IN_BACKEND
from apps.accounts.services import LoginResult
from apps.accounts.totp import SealedTotpDevice
from apps.api.inputs import client_ip
from apps.core.errors import DomainError, ErrorCode
from apps.panel.access import ANY_ROLE, PanelRequest, is_panel_user, panel_page
from apps.panel.forms import LoginForm, TotpCodeForm
from apps.panel.pages import error_text, render_page

CHALLENGE_KEY = "panel-2fa-challenge"
NEXT_KEY = "panel-next"


def _safe_next(request: HttpRequest, candidate: str | None) -> str:
    if candidate and url_has_allowed_host_and_scheme(candidate, {request.get_host()}, request.is_secure()):
        return candidate
    return "/panel/"


def _sign_in(request: HttpRequest, result: LoginResult, *, two_factor: bool = False) -> HttpResponseRedirect:
    user = result.user
    assert user is not None, "a login result without a challenge holds its user"
    next_url = request.session.pop(NEXT_KEY, None)
    django_login(request, user, backend=SIGN_IN_BACKEND)
    device = next(iter(devices_for_user(user, confirmed=True)), None) if two_factor else None
    if device is not None:
        otp_login(request, device)
    return redirect(_safe_next(request, next_url))


def login_view(request: HttpRequest) -> HttpResponse:
    if is_panel_user(request.user):
        return redirect("panel:dashboard")
    form = LoginForm(request.POST or None)
    status, headers = 200, dict[str, str]()
    if request.method == "POST" and form.is_valid():
        try:
            result = account_services.panel_login(
                email=form.cleaned_data["email"], password=form.cleaned_data["password"], ip=client_ip(request)
            )
        except DomainError as exc:
            form.add_error(None, error_text(exc))
            if exc.code == ErrorCode.RATE_LIMITED:  # the form says so in words; scripts read 429
                status, headers = 429, exc.headers
        else:
            request.session[NEXT_KEY] = request.GET.get("next", "")
            if result.challenge is not None:
                request.session[CHALLENGE_KEY] = result.challenge.public_id
                return redirect("panel:login_2fa")
            return _sign_in(request, result)
    response = render(request, "panel/login.html", {"form": form}, status=status)
    for name, value in headers.items():
        response[name] = value
    return response


def login_two_factor_view(request: HttpRequest) -> HttpResponse:
    challenge_id = request.session.get(CHALLENGE_KEY)
    if not challenge_id:
        return redirect("panel:login")
    form = TotpCodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            result = account_services.two_factor_verify(challenge_id=challenge_id, code=form.cleaned_data["code"])
        except DomainError as exc:
            form.add_error("code", error_text(exc))
            if not account_selectors.login_challenge_open(challenge_id):
                request.session.pop(CHALLENGE_KEY, None)  # burnt or expired: start again
                messages.error(request, _("{error} Sign in again.").format(error=error_text(exc)))
                return redirect("panel:login")
        else:
            request.session.pop(CHALLENGE_KEY, None)
            return _sign_in(request, result, two_factor=True)
    return render(request, "panel/login_2fa.html", {"form": form})


@require_POST
def logout_view(request: HttpRequest) -> HttpResponseRedirect:
    django_logout(request)
    messages.info(request, _("You are signed out."))
    return redirect("panel:login")


def _qr_svg(url: str) -> str:
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10)
    buffer = BytesIO()
    image.save(buffer)
    return "data:image/svg+xml;base64," + base64.b64encode(buffer.getvalue()).decode()


@panel_page(ANY_ROLE)
def two_factor_view(request: PanelRequest) -> HttpResponse:
    """Enrol: start shows a QR code and the key; a correct code from the app confirms it."""
    user = request.user
    enrolled = any(devices_for_user(user, confirmed=True))
    pending = next((d for d in devices_for_user(user, confirmed=False) if isinstance(d, SealedTotpDevice)), None)
    form = TotpCodeForm(request.POST or None)
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "start":
            account_services.totp_enrol_start(user=user)
            return redirect("panel:two_factor")
        if action == "disable":
            account_services.totp_disable(user=user)
            messages.success(request, _("Two-factor sign-in is off."))
            return redirect("panel:two_factor")
        if action == "confirm" and form.is_valid():
            if account_services.totp_enrol_confirm(user=user, code=form.cleaned_data["code"]):
                messages.success(request, _("Two-factor sign-in is on: you will be asked for a code at sign-in."))
                return redirect("panel:two_factor")
            form.add_error("code", _("That code is not right; check the time on your phone and try again."))
    context: dict[str, object] = {"enrolled": enrolled, "pending": pending, "form": form}
    if pending is not None:
        context["qr"] = _qr_svg(pending.config_url)
        context["secret"] = base64.b32encode(pending.bin_key).decode()
    return render_page(request, "panel/two_factor.html", context)
