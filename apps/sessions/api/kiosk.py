"""Kiosk API for sessions: start, status poll, cancel, the customer's language, pointing."""

from collections.abc import Mapping

from rest_framework import serializers

from apps.api.inputs import validated
from apps.api.operations import Answer, Data, operation
from apps.core.locales import LOCALE_MAX_LENGTH, LOCALE_PATTERN
from apps.kiosks.api.base import KioskAPIView, KioskRequest
from apps.sessions import accessible_mode, customer_locale, pending_timeout, pointing, selectors, services
from apps.sessions.api.pointing_shapes import MenuItemIn, SessionItemOut, session_item_body
from apps.sessions.bodies import StatusBody, StatusOut, status_body
from apps.sessions.models import Medium, Session


def _locale_field() -> serializers.RegexField:
    return serializers.RegexField(
        LOCALE_PATTERN,
        max_length=LOCALE_MAX_LENGTH,
        help_text="The customer's language as a locale tag (e.g. es-ES): the agent sees it, the menu and "
        "the cart's customer words follow it.",
        error_messages={"invalid": "Use a locale like en-US."},
    )


def _accessible_field(*, required: bool) -> serializers.BooleanField:
    return serializers.BooleanField(
        required=required,
        help_text="The customer uses the kiosk's accessible mode (speech, keypad, low layout, longer times); "
        "the status body says it.",
    )


class StartIn(serializers.Serializer[None]):
    device_id = serializers.UUIDField()
    customer_locale = _locale_field()
    accessible_mode = _accessible_field(required=False)
    medium = serializers.ChoiceField(
        choices=Medium.values,
        default=Medium.VIDEO,
        help_text="How the customer talks to the agent: `video` (the call) or `chat` (writing only); "
        "an agent takes one video customer at a time, and chats beside it up to its capacity.",
    )


class AccessibleIn(serializers.Serializer[None]):
    accessible_mode = _accessible_field(required=True)


class AccessibleOut(serializers.Serializer[None]):
    session_id = serializers.CharField()
    accessible_mode = serializers.BooleanField()


class LocaleIn(serializers.Serializer[None]):
    customer_locale = _locale_field()


class LocaleOut(serializers.Serializer[None]):
    session_id = serializers.CharField()
    customer_locale = serializers.CharField()


class StartOut(serializers.Serializer[Session]):
    session_id = serializers.CharField(source="public_id")
    status = serializers.CharField()
    created_at = serializers.DateTimeField()
    poll_url = serializers.SerializerMethodField()

    def get_poll_url(self, session: Session) -> str:
        return f"/api/public/sessions/{session.public_id}/status"


class StartSessionView(KioskAPIView):
    @operation(Answer(StartOut(), 201), body=StartIn)
    def post(self, request: KioskRequest, data: Data) -> Session:
        """Start a customer session

        409 SESSION_IN_PROGRESS while the kiosk has an open session; 403 OWNER_SUSPENDED while the
        kiosk's owner is suspended (the kiosk should show that it is closed)."""
        kiosk = request.auth
        if data["device_id"] != kiosk.device_id:
            raise serializers.ValidationError({"device_id": ["Must equal the X-Device-Id header."]})
        return services.session_start(
            kiosk=kiosk,
            customer_locale=data["customer_locale"],
            accessible_mode=data.get("accessible_mode", False),
            medium=data["medium"],
        )


# The status body, as its builder made it (the poll is the hottest read).
STATUS = Answer(StatusOut(), built=True)


class SessionStatusView(KioskAPIView):
    @operation(STATUS)
    def get(self, request: KioskRequest, public_id: str) -> Mapping[str, object]:
        """Poll a session's status (every 2 s while pending)"""
        return selectors.session_status_body_for_kiosk(kiosk=request.auth, public_id=public_id)


class CancelIn(serializers.Serializer[None]):
    reason = serializers.ChoiceField(
        choices=["customer", "inactivity"],
        default="customer",
        help_text="customer (default): the customer cancelled or left (end reason kiosk_cancelled); inactivity: "
        "nobody answered the kiosk's inactivity prompt (end reason kiosk_inactivity).",
    )


class CancelSessionView(KioskAPIView):
    # The body is read here: it is optional JSON, and clients that post nothing (or an empty form)
    # cancel as the customer.
    @operation(STATUS, request=CancelIn)
    def post(self, request: KioskRequest, public_id: str) -> StatusBody:
        """The customer cancels the session"""
        body = request.data if (request.content_type or "").startswith("application/json") else {}
        data = validated(CancelIn, body or {})
        inactivity = data["reason"] == "inactivity"
        session = services.session_cancel_by_kiosk(public_id=public_id, kiosk=request.auth, inactivity=inactivity)
        return status_body(session)


class SessionLocaleView(KioskAPIView):
    @operation(Answer(LocaleOut()), body=LocaleIn)
    def post(self, request: KioskRequest, public_id: str, data: Data) -> dict[str, str]:
        """The customer changes the session's language (the agent sees it: CustomerLocaleChanged)

        While the session is open (pending, active or payment); 409 SESSION_ALREADY_ENDED after;
        404 SESSION_NOT_FOUND for another kiosk's session; 422 VALIDATION_ERROR for a malformed
        locale. The serving agent and the agents holding an offer of the session hear
        CustomerLocaleChanged; the cart's customer words (GET .../order) and the menu read with
        ?locale= are the kiosk's to read again."""
        session = customer_locale.session_change_locale(
            kiosk=request.auth, public_id=public_id, customer_locale=data["customer_locale"]
        )
        return {"session_id": session.public_id, "customer_locale": session.customer_locale}


class SessionAccessibleView(KioskAPIView):
    @operation(Answer(AccessibleOut()), body=AccessibleIn)
    def post(self, request: KioskRequest, public_id: str, data: Data) -> dict[str, object]:
        """The customer turns the kiosk's accessible mode on or off during the session

        While the session is open (pending, active or payment); 409 SESSION_ALREADY_ENDED after;
        404 SESSION_NOT_FOUND for another kiosk's session; 422 VALIDATION_ERROR without a boolean
        `accessible_mode`. The status body's `accessible_mode` follows it."""
        session = accessible_mode.session_set_accessible_mode(
            kiosk=request.auth, public_id=public_id, accessible_mode=data["accessible_mode"]
        )
        return {"session_id": session.public_id, "accessible_mode": session.accessible_mode}


class SessionTimeoutView(KioskAPIView):
    _WHAT = (
        "The server abandons a waiting session (pending: waiting for an agent, or ordering alone before paying) "
        "SESSION_PENDING_TIMEOUT seconds (twice that in accessible mode) after the latest of its start, its "
        "last cart change and its last extension; the kiosk warns the customer before it and one key extends "
        "it. Active and payment have no server timeout (timeout_at null). 404 SESSION_NOT_FOUND for another "
        "kiosk's session."
    )
    _TIMEOUT = Answer(pending_timeout.TimeoutOut(), built=True)

    @operation(_TIMEOUT, description=_WHAT)
    def get(self, request: KioskRequest, public_id: str) -> pending_timeout.TimeoutBody:
        """When the server's pending timeout ends the session"""
        return pending_timeout.session_timeout(kiosk=request.auth, public_id=public_id)

    @operation(
        _TIMEOUT,
        description=f"{_WHAT} No body. 409 SESSION_ALREADY_ENDED after the end; while active or in payment "
        "nothing changes.",
    )
    def post(self, request: KioskRequest, public_id: str) -> pending_timeout.TimeoutBody:
        """The customer asks for more time: the pending timeout starts again from now"""
        return pending_timeout.session_extend_timeout(kiosk=request.auth, public_id=public_id)


class PointAtItemView(KioskAPIView):
    @operation(Answer(SessionItemOut()), body=MenuItemIn)
    def post(self, request: KioskRequest, public_id: str, data: Data) -> dict[str, str]:
        """The customer points at a menu item: the agent's dashboard says which (MenuItemPointed)

        Only while an agent serves the session (active or in payment: 409 INVALID_STATE while it
        waits, SESSION_ALREADY_ENDED after); the item must be on the active menu of the kiosk's
        business (422 VALIDATION_ERROR on `item_id`). The cart stays the agent's to change."""
        session, item = pointing.point_at_item(kiosk=request.auth, public_id=public_id, item_id=int(data["item_id"]))
        return session_item_body(session, item)
