"""Ending a session from any state, and disabling an agent who holds one.

A session in payment ends through billing: its open intent is cancelled outside the row lock
first. Sessions own that call's shape (EndInPayment) and billing registers the function that does
it (payments.payment_abandon) when the app is ready (apps/billing/apps.py): billing sits above
sessions, and sessions import no billing code (docs/decisions/structure.md "The order of the domain apps")."""

import logging
from typing import Protocol

from django.db import transaction

from apps.accounts import services as account_services
from apps.accounts.models import User
from apps.core.errors import DomainError, ErrorCode
from apps.sessions import selectors as session_selectors
from apps.sessions import services as session_services
from apps.sessions.models import EndReason, Session, SessionStatus

logger = logging.getLogger(__name__)

AGENT_DISABLED_NOTE = "Ended by the service: the agent's account was disabled."


class EndInPayment(Protocol):
    """Ends a session in payment: its open intent cancelled first, outside the row lock."""

    def __call__(self, *, public_id: str, agent: User, reason: str, notes: str) -> Session: ...


_end_in_payment: list[EndInPayment] = []  # at most one: the last registered


def register_end_in_payment(end: EndInPayment) -> None:
    _end_in_payment[:] = [end]


def session_end(*, public_id: str, agent: User, reason: str, notes: str) -> Session:
    """The accepting agent ends the session with one of the four reasons."""
    with transaction.atomic():
        session = session_selectors.session_visible_to_agent(agent=agent, public_id=public_id, lock=True)
        if session.status != SessionStatus.PAYMENT:
            session_services.session_end_locked(session=session, agent=agent, reason=reason, notes=notes)
            return session
    if not _end_in_payment:
        raise RuntimeError("No way to end a session in payment is registered (apps.billing is not ready).")
    return _end_in_payment[0](public_id=public_id, agent=agent, reason=reason, notes=notes)


def session_release(*, public_id: str, notes: str) -> Session:
    """End an accepted session whose agent can no longer serve it (disabled, or ended from the
    super-admin) as `technical_issue`. It is the agent's own end call made on its behalf, so a
    payment in progress is cancelled, the kiosk is told and `session.ended` is emitted the same
    way. A session that ended meanwhile is returned as it is."""
    session = Session.objects.select_related("agent").get(public_id=public_id)
    if session.status not in (SessionStatus.ACTIVE, SessionStatus.PAYMENT) or session.agent is None:
        return session
    try:
        return session_end(public_id=public_id, agent=session.agent, reason=EndReason.TECHNICAL_ISSUE, notes=notes)
    except DomainError as exc:
        if exc.code != ErrorCode.SESSION_ALREADY_ENDED:  # a kiosk cancel or a payment won the race
            raise
        return Session.objects.get(pk=session.pk)


def agent_disable(*, agent: User) -> list[Session]:
    """Disable an agent (accounts' agent_account_disable: no sign-in, tokens revoked) and end a
    customer session it holds (active or in payment) as `technical_issue` (payment cancelled,
    kiosk told, `session.ended`): nobody is left talking to an empty chair. Returns the sessions
    ended. No session can be accepted after the list below is read (the account row lock orders
    the two). Each session ends in its own transaction; one the processor would not let go of is
    logged and left as it is, and disabling again retries it."""
    account_services.agent_account_disable(agent=agent)
    held = Session.objects.filter(agent=agent, status__in=(SessionStatus.ACTIVE, SessionStatus.PAYMENT))
    ended = []
    for public_id in held.values_list("public_id", flat=True):
        try:
            ended.append(session_release(public_id=public_id, notes=AGENT_DISABLED_NOTE))
        except DomainError as exc:
            logger.warning("agent %s disabled; session %s not released: %s", agent.pk, public_id, exc.code)
    return ended
