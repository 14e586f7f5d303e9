"""Display tokens and their clients for the screens' API tests (/api/displays/*)."""

from django.test import Client

from apps.displays import services as display_services


def display_token(business, kind: str = "kitchen", *, ready_seconds: int = 600) -> str:
    """A new display token's secret for `business`."""
    _, raw = display_services.display_token_create(
        business=business, kind=kind, name=f"{kind} screen", ready_seconds=ready_seconds, created_by=None
    )
    return raw


def display_client(raw: str) -> Client:
    return Client(headers={"X-Display-Token": raw})
