"""The super-admin site at /admin/ with the sign-in limits of every other sign-in route (no
sign-in route may be an open door for password guessing):
the same failure counters per email + address and per address (apps/accounts/login_throttle.py,
keyed on apps.api.inputs.client_ip), so guesses here and on the agent API, the token API and the
owner panel count together. A refused attempt is answered 429 with Retry-After before the password
is hashed (each hash costs real CPU). Installed through Django's documented hooks: an AdminConfig
whose `default_site` is this site (apps/accounts/admin_config.py, in INSTALLED_APPS), and the site's `login_form`."""

from typing import Any

from django.contrib.admin import AdminSite
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse

from apps.accounts import login_throttle
from apps.api.inputs import client_ip
from apps.core.errors import DomainError


class LimitedAdminLoginForm(AdminAuthenticationForm):
    refusal: DomainError | None = None

    def clean(self) -> dict[str, Any]:
        assert self.request is not None  # the admin's login view always passes its request
        email, ip = self.cleaned_data.get("username") or "", client_ip(self.request)
        try:
            login_throttle.ensure_allowed(email, ip)
        except DomainError as exc:
            self.refusal = exc
            raise ValidationError(exc.message, code="rate_limited") from None
        try:
            cleaned = super().clean()
        except ValidationError:  # a wrong password, or an account that may not use the admin
            login_throttle.record_failure(email, ip)
            raise
        login_throttle.reset(email, ip)
        return cleaned


class LimitedAdminSite(AdminSite):
    login_form = LimitedAdminLoginForm

    def login(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        response = super().login(request, extra_context)
        form = (getattr(response, "context_data", None) or {}).get("form")
        refusal = getattr(form, "refusal", None)
        if refusal is not None:  # the page says so in words; scripts read 429
            response.status_code = 429
            for name, value in refusal.headers.items():
                response[name] = value
        return response
