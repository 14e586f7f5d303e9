"""The customer turns the kiosk's accessible mode on or off during the session (a key of the
kiosk's keypad, or its button at the bottom edge of the screen). The status body says it."""

from apps.kiosks.models import Kiosk
from apps.sessions.customer_locale import customer_choice_set
from apps.sessions.domain_events import AccessibleModeChanged
from apps.sessions.models import Session


def session_set_accessible_mode(*, kiosk: Kiosk, public_id: str, accessible_mode: bool) -> Session:
    """While the session is open (pending, active, payment); another kiosk's session is 404, an
    ended one 409 SESSION_ALREADY_ENDED. Setting the value it already has changes nothing."""
    return customer_choice_set(kiosk, public_id, "accessible_mode", accessible_mode, AccessibleModeChanged)
