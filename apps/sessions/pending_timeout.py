"""The server's pending timeout as the kiosk sees it: when a waiting session (pending: waiting for
an agent, or ordering alone before paying) will be abandoned by the sweep
(services.sessions_abandon_stale), and the customer's one key that pushes it back. The kiosk warns
before it (EN 301 549 11.2.2.1, timing adjustable), so the deadline here and the sweep's cut-off
are the same rule: SESSION_PENDING_TIMEOUT seconds (twice that in accessible mode) from the latest
of the start, the last cart change and the last extension. Other statuses have no server timeout:
an agent decides, and paying alone is watched by the kiosk's own inactivity prompt."""

from datetime import datetime, timedelta
from typing import Annotated, TypedDict

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apps.core.body_shapes import DateTimeText, Doc, serializer_for
from apps.core.errors import DomainError, ErrorCode
from apps.core.timefmt import iso_z
from apps.kiosks.models import Kiosk
from apps.sessions import selectors
from apps.sessions.models import OPEN_STATUSES, Session, SessionStatus


class TimeoutBody(TypedDict):
    session_id: str
    status: str
    timeout_at: Annotated[
        DateTimeText | None,
        Doc(
            "When the server abandons the waiting session (status timed_out) unless it is extended or taken; "
            "null when no server timeout runs (active, payment)."
        ),
    ]
    seconds_left: Annotated[
        int | None,
        Doc(
            "The same as seconds from now, as the server counts them (a kiosk's clock may differ): warn before "
            "it runs out."
        ),
    ]


TimeoutOut = serializer_for(TimeoutBody, "TimeoutOut")


def pending_seconds(session: Session) -> int:
    """The pending timeout of this session: doubled in accessible mode, as every kiosk time."""
    return settings.SESSION_PENDING_TIMEOUT * (2 if session.accessible_mode else 1)


def pending_deadline(session: Session) -> datetime | None:
    """When the sweep may abandon the session; None unless it is pending."""
    if session.status != SessionStatus.PENDING:
        return None
    last_cart = Session.objects.filter(pk=session.pk).values_list("order__updated_at", flat=True).first()
    since = max(moment for moment in (session.created_at, session.timeout_extended_at, last_cart) if moment)
    return since + timedelta(seconds=pending_seconds(session))


def timeout_body(session: Session) -> TimeoutBody:
    deadline = pending_deadline(session)
    left = None if deadline is None else max(0, int((deadline - timezone.now()).total_seconds()))
    return {
        "session_id": session.public_id,
        "status": session.status,
        "timeout_at": None if deadline is None else DateTimeText(iso_z(deadline)),
        "seconds_left": left,
    }


def session_timeout(*, kiosk: Kiosk, public_id: str) -> TimeoutBody:
    """The kiosk's session's server timeout (another kiosk's session is 404)."""
    return timeout_body(selectors.session_for_kiosk(kiosk=kiosk, public_id=public_id))


def session_extend_timeout(*, kiosk: Kiosk, public_id: str) -> TimeoutBody:
    """The customer answered the kiosk's warning: a pending session gets its whole time again from
    now. While active or in payment nothing runs out on the server and nothing changes; an ended
    session is 409 SESSION_ALREADY_ENDED, another kiosk's 404. Nobody else is told: the agents'
    offers and the queue do not depend on it."""
    with transaction.atomic():
        session = selectors.session_for_kiosk(kiosk=kiosk, public_id=public_id, lock=True)
        if session.status not in OPEN_STATUSES:
            raise DomainError(ErrorCode.SESSION_ALREADY_ENDED, "This session has already ended.")
        if session.status == SessionStatus.PENDING:
            session.timeout_extended_at = timezone.now()
            session.save(update_fields=["timeout_extended_at"])
    return timeout_body(session)
