"""The customer changes the session's language at the kiosk (its language buttons, during the
session). The tag's pattern is apps/core/locales.py's."""

from collections.abc import Callable

from django.db import transaction

from apps.core import events
from apps.core.errors import DomainError, ErrorCode
from apps.core.events import Event
from apps.kiosks.models import Kiosk
from apps.sessions import selectors
from apps.sessions.domain_events import CustomerLocaleChanged
from apps.sessions.models import OPEN_STATUSES, Session


def session_change_locale(*, kiosk: Kiosk, public_id: str, customer_locale: str) -> Session:
    """The customer picks another language while the session is open (pending, active, payment):
    the agent's dashboard and offers say the new one, the cart's customer words and the next
    offers follow it. Another kiosk's session is 404; an ended one 409 SESSION_ALREADY_ENDED.
    Choosing the language it already has changes nothing and tells nobody."""
    return customer_choice_set(kiosk, public_id, "customer_locale", customer_locale, CustomerLocaleChanged)


def customer_choice_set(
    kiosk: Kiosk, public_id: str, field: str, value: object, changed: Callable[[Session], Event]
) -> Session:
    """A choice the customer makes at the kiosk during the session (its language, its accessible
    mode): set on the open session, under its row lock, and `changed` emitted when it changed."""
    with transaction.atomic():
        session = selectors.session_for_kiosk(kiosk=kiosk, public_id=public_id, lock=True)
        if session.status not in OPEN_STATUSES:
            raise DomainError(ErrorCode.SESSION_ALREADY_ENDED, "This session has already ended.")
        if getattr(session, field) != value:
            setattr(session, field, value)
            session.save(update_fields=[field])
            events.emit(changed(session))
    return session
