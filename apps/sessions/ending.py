"""Ending a session from any state, and disabling an agent who holds one.

A session in payment ends through billing: its open intent is cancelled outside the row lock
first. Sessions own that call's shape, `end_in_payment(public_id=, agent=, reason=, notes=) ->
Session`, and settings.SESSION_END_IN_PAYMENT names the function that does it (billing's
payments.payment_abandon), as settings.EVENT_SUBSCRIBERS names the event registry: sessions import
no billing code (docs/decisions.md "Ending lives in sessions")."""

import logging
from typing import cast

from django.conf import settings
from django.db import transaction
from django.utils.module_loading import import_string

from apps.accounts import services as account_services
from apps.accounts.models import User
from apps.core.errors import DomainError, ErrorCode
from apps.sessions import selectors as session_selectors
from apps.sessions import services as session_services
from apps.sessions.models import EndReason, Session, SessionStatus

logger = logging.getLogger(__name__)

AGENT_DISABLED_NOTE = "Ended by the service: the agent's account was disabled."


def session_end(*, public_id: str, agent: User, reason: str, notes: str) -> Session:
    """The accepting agent ends the session with one of the four reasons."""
    with transaction.atomic():
        session = session_selectors.session_visible_to_agent(agent=agent, public_id=public_id, lock=True)
        if session.status != SessionStatus.PAYMENT:
            session_services.session_end_locked(session=session, agent=agent, reason=reason, notes=notes)
            return session
    end_in_payment = import_string(settings.SESSION_END_IN_PAYMENT)  # Any: import_string is untyped
    return cast(Session, end_in_payment(public_id=public_id, agent=agent, reason=reason, notes=notes))


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
