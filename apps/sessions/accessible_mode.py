"""The customer turns the kiosk's accessible mode on or off during the session (a key of the
kiosk's keypad, or its button at the bottom edge of the screen). The status body says it."""

from django.db import transaction

from apps.core import events
from apps.core.errors import DomainError, ErrorCode
from apps.kiosks.models import Kiosk
from apps.sessions import selectors
from apps.sessions.domain_events import AccessibleModeChanged
from apps.sessions.models import OPEN_STATUSES, Session


def session_set_accessible_mode(*, kiosk: Kiosk, public_id: str, accessible_mode: bool) -> Session:
    """While the session is open (pending, active, payment); another kiosk's session is 404, an
    ended one 409 SESSION_ALREADY_ENDED. Setting the value it already has changes nothing."""
    with transaction.atomic():
        session = selectors.session_for_kiosk(kiosk=kiosk, public_id=public_id, lock=True)
        if session.status not in OPEN_STATUSES:
            raise DomainError(ErrorCode.SESSION_ALREADY_ENDED, "This session has already ended.")
        if session.accessible_mode != accessible_mode:
            session.accessible_mode = accessible_mode
            session.save(update_fields=["accessible_mode"])
            events.emit(AccessibleModeChanged(session))
    return session
