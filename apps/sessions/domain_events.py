"""What happens to a session (apps.core.events). Each event holds the session as the transition
left it; the webhook payloads are in webhook_payloads.py, the real-time bodies in realtime_messages.py."""

from typing import Protocol

from apps.core.events import Event, OwnerOf
from apps.sessions import webhook_payloads
from apps.sessions.models import Session


class SessionEvent(Protocol):
    """Any event of one session, this app's or another's (routing's transfers): what a subscriber
    of several of them reads."""

    @property
    def session(self) -> Session: ...


class _SessionEvent(Event):
    session: Session
    owner_id = OwnerOf("session.owner_id")


class SessionStarted(_SessionEvent):
    """A kiosk opened a pending session: agents hear of it, the owner gets `session.started`."""

    webhook_name = "session.started"

    def webhook_payload(self) -> webhook_payloads.SessionStartedPayload:
        return webhook_payloads.session_started(self.session)


class SessionAccepted(_SessionEvent):
    """An agent won the session."""

    webhook_name = "session.accepted"

    def webhook_payload(self) -> webhook_payloads.SessionAcceptedPayload:
        return webhook_payloads.session_accepted(self.session)


class SessionEnded(_SessionEvent):
    """The session ended in any way; `was_pending`: nobody had accepted it yet."""

    was_pending: bool = False
    webhook_name = "session.ended"

    def webhook_payload(self) -> webhook_payloads.SessionEndedPayload:
        return webhook_payloads.session_ended(self.session)


class SessionMoved(_SessionEvent):
    """An open-to-open transition (to payment and back): only the kiosk hears of it."""


class CustomerLocaleChanged(_SessionEvent):
    """The customer chose another language during the session (the kiosk's language buttons):
    `session.customer_locale` is the new one. No webhook (the spec's event list is closed): the
    serving agent and the agents holding an offer of it hear it (CustomerLocaleChanged)."""


class AccessibleModeChanged(_SessionEvent):
    """The customer turned the kiosk's accessible mode on or off during the session:
    `session.accessible_mode` is the new value. No webhook (the spec's event list is closed)."""
