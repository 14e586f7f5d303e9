"""The request and answer of show (agent) and point (kiosk): a menu item named on a session."""

from rest_framework import serializers

from apps.menu.models import MenuItem
from apps.sessions.models import Session


class MenuItemIn(serializers.Serializer[None]):
    item_id = serializers.RegexField(
        r"^[0-9]{1,18}$",
        help_text="A menu item's id, as the surface's menu read gives it.",
        error_messages={"invalid": "Give a menu item's id."},
    )


class SessionItemOut(serializers.Serializer[None]):
    session_id = serializers.CharField()
    item_id = serializers.CharField()


def session_item_body(session: Session, item: MenuItem) -> dict[str, str]:
    return {"session_id": session.public_id, "item_id": str(item.pk)}
