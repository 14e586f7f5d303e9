"""Rendering helpers shared by every panel view: the layout's context, one-time values kept for
the next page (a pairing code, a webhook secret, an API key's client secret), and domain errors turned into messages."""

from django.contrib import messages
from django.core.exceptions import ObjectDoesNotExist
from django.http import HttpRequest
from django.shortcuts import render

from apps.accounts import selectors as account_selectors
from apps.core.errors import DomainError
from apps.panel.access import can_manage_owner_pages

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


def _dunning(user) -> bool:
    try:
        return bool(user.owner.billing.dunning)
    except ObjectDoesNotExist:
        return False


def render_page(request: HttpRequest, template: str, context: dict | None = None, *, section: str = "", status=200):
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


def businesses_of(request: HttpRequest):
    return account_selectors.businesses_of_owner(request.user.owner_id)


def put_once(request: HttpRequest, key: str, value) -> None:
    """Keep `value` for the next page only (it is removed when shown)."""
    request.session[f"panel-once:{key}"] = value


def take_once(request: HttpRequest, key: str):
    return request.session.pop(f"panel-once:{key}", None)


def error_text(exc: DomainError) -> str:
    if isinstance(exc.details, dict):
        reasons = []
        for field, problems in exc.details.items():
            items = problems if isinstance(problems, list | tuple) else [problems]
            reasons.extend(f"{field}: {problem}" for problem in items)
        if reasons:
            return f"{exc.message} ({'; '.join(reasons)})"
    return exc.message


def report_error(request: HttpRequest, exc: DomainError) -> None:
    messages.error(request, error_text(exc))
