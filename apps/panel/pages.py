"""Rendering helpers shared by every panel view: the layout's context, one-time values kept for
the next page (a pairing code, a webhook secret, an API key's client secret), domain errors turned
into messages or put on a form, and the one shape of a POST action on one of the owner's objects."""

from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any, TypeVar

from django import forms
from django.contrib import messages
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import QuerySet
from django.http import HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST
from django_stubs_ext import StrPromise

from apps.accounts import selectors as account_selectors
from apps.accounts.models import Business, User
from apps.core.errors import DomainError
from apps.panel.access import PanelRequest, View, can_manage_owner_pages, panel_page
from apps.panel.forms import ServiceErrorsOnFields, detail_problems

NAV = [
    ("dashboard", _("Dashboard"), False),
    ("kiosks", _("Kiosks"), False),
    ("agents", _("Agents"), True),
    ("menu", _("Menu"), False),
    ("orders", _("Orders"), False),
    ("sessions", _("Sessions"), False),
    ("queue", _("Queue"), False),
    ("reports", _("Reports"), False),
    ("displays", _("Displays"), False),
    ("printers", _("Printers"), False),
    ("webhooks", _("Webhooks"), True),
    ("api_keys", _("API keys"), True),
    ("billing", _("Billing"), True),
    ("settings", _("Settings"), False),
]

# What a page keeps for the next one: a secret, or a few named strings and ids.
OnceValue = str | dict[str, str | int]
_T = TypeVar("_T")


def _dunning(user: User) -> bool:
    try:
        return bool(user.owner and user.owner.billing.dunning)
    except ObjectDoesNotExist:
        return False


def render_page(
    request: PanelRequest,
    template: str,
    context: Mapping[str, object] | None = None,
    *,
    section: str = "",
    status: int = 200,
) -> HttpResponse:
    user = request.user
    owner_pages = can_manage_owner_pages(user)
    page = {
        "nav": [(name, label) for name, label, owner_only in NAV if owner_pages or not owner_only],
        "section": section,
        "dunning": _dunning(user),
        "suspended": user.owner.suspended,
        "is_owner_role": owner_pages,
    }
    return render(request, template, {**page, **(context or {})}, status=status)


def businesses_of(request: PanelRequest) -> QuerySet[Business]:
    return account_selectors.businesses_of_owner(request.user.owner_id)


def put_once(request: PanelRequest, key: str, value: OnceValue) -> None:
    """Keep `value` for the next page only (it is removed when shown)."""
    request.session[f"panel-once:{key}"] = value


def take_once(request: PanelRequest, key: str) -> OnceValue | None:
    value = request.session.pop(f"panel-once:{key}", None)
    return value if isinstance(value, str | dict) else None


def error_message(exc: DomainError) -> str:
    """A service's refusal in the panel's language: its message is the API's English and a msgid
    of the catalogue (docs/decisions/words.md), so it reads itself where nothing translates it."""
    return gettext(exc.sentence).format(**exc.params) if exc.params else gettext(exc.sentence)


def error_text(exc: DomainError) -> str:
    message = error_message(exc)
    reasons = [f"{field}: {problem}" for field, problem in detail_problems(exc.details)]
    if reasons:
        return f"{message} ({'; '.join(reasons)})"
    return message


def report_error(request: PanelRequest, exc: DomainError) -> None:
    messages.error(request, error_text(exc))


def form_posted(
    request: PanelRequest, form: forms.Form, act: Callable[[dict[str, Any]], HttpResponseBase]
) -> HttpResponseBase | None:
    """A page's form, posted and valid: `act` on its cleaned data (the service call, what to tell,
    where to go next) and answer where it goes. A service's refusal is put on the form (on the
    fields it names where the form places them, else above the form) and None says: show the page
    again, with the form."""
    if request.method != "POST" or not form.is_valid():
        return None
    try:
        return act(form.cleaned_data)
    except DomainError as exc:
        if not (isinstance(form, ServiceErrorsOnFields) and form.add_service_error(exc.details)):
            form.add_error(None, error_text(exc))
        return None


def object_action(
    find: Callable[[PanelRequest, int], _T],
    back: Callable[[_T], HttpResponseBase],
    *,
    access: str,
    id_name: str,
) -> Callable[[Callable[[_T], str]], View[...]]:
    """Make a function that acts on one of the owner's objects (a service call) and returns what
    to tell the user into the POST view for it: `find` the object by the URL's `id_name` (a 404
    outside the owner), act, say it, and go `back`."""

    def decorate(act: Callable[[_T], str]) -> View[...]:
        @panel_page(access)
        @require_POST
        @wraps(act)
        def view(request: PanelRequest, **ids: int) -> HttpResponseBase:
            found = find(request, ids[id_name])
            messages.success(request, act(found))
            return back(found)

        return view

    return decorate


def form_action(
    find: Callable[[PanelRequest, int], _T],
    back: Callable[[_T], HttpResponseBase],
    form_class: type[forms.Form],
    *,
    access: str,
    id_name: str,
    invalid: "str | StrPromise",
) -> Callable[[Callable[[PanelRequest, _T, dict[str, Any]], str]], View[...]]:
    """`object_action` for a POST that sends a small form: an invalid form says `invalid` (a lazy
    translation is said in the request's language); a valid one's cleaned data goes to the act,
    and a service's refusal is said as an error."""

    def decorate(act: Callable[[PanelRequest, _T, dict[str, Any]], str]) -> View[...]:
        @panel_page(access)
        @require_POST
        @wraps(act)
        def view(request: PanelRequest, **ids: int) -> HttpResponseBase:
            found = find(request, ids[id_name])
            form = form_class(request.POST)
            if not form.is_valid():
                messages.error(request, invalid)
                return back(found)
            try:
                messages.success(request, act(request, found, form.cleaned_data))
            except DomainError as exc:
                report_error(request, exc)
            return back(found)

        return view

    return decorate
