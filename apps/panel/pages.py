"""Rendering helpers shared by every panel view: the layout's context, one-time values kept for
the next page (a pairing code, a webhook secret, an API key's client secret), domain errors turned
into messages, and the one shape of a POST action on one of the owner's objects."""

from collections.abc import Callable, Mapping
from typing import TypeVar

from django.contrib import messages
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import QuerySet
from django.http import HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.views.decorators.http import require_POST

from apps.accounts import selectors as account_selectors
from apps.accounts.models import Business, User
from apps.core.errors import DomainError
from apps.panel.access import PanelRequest, View, can_manage_owner_pages, panel_page
from apps.panel.forms import detail_problems

NAV = [
    ("dashboard", "Dashboard", False),
    ("kiosks", "Kiosks", False),
    ("agents", "Agents", True),
    ("menu", "Menu", False),
    ("orders", "Orders", False),
    ("sessions", "Sessions", False),
    ("queue", "Queue", False),
    ("reports", "Reports", False),
    ("displays", "Displays", False),
    ("webhooks", "Webhooks", True),
    ("api_keys", "API keys", True),
    ("billing", "Billing", True),
    ("settings", "Settings", False),
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


def error_text(exc: DomainError) -> str:
    reasons = [f"{field}: {problem}" for field, problem in detail_problems(exc.details)]
    if reasons:
        return f"{exc.message} ({'; '.join(reasons)})"
    return exc.message


def report_error(request: PanelRequest, exc: DomainError) -> None:
    messages.error(request, error_text(exc))


def object_action(
    find: Callable[[PanelRequest, int], _T],
    act: Callable[[_T], object],
    said: str,
    back: Callable[[_T], HttpResponseBase],
    *,
    access: str,
    id_name: str,
) -> View[...]:
    """A POST on one of the owner's objects: `find` it by the URL's `id_name` (a 404 outside the
    owner), `act` on it (the service call), say `said` (formatted with the object and what `act`
    returned: "{0.email}", "{1.pk}") and go `back`."""

    @panel_page(access)
    @require_POST
    def view(request: PanelRequest, **ids: int) -> HttpResponseBase:
        found = find(request, ids[id_name])
        done = act(found)
        messages.success(request, said.format(found, done))
        return back(found)

    return view
