"""The accept endpoint (POST /api/sessions/{id}/accept): an agent claims a waiting session
(apps/sessions/services.session_accept_seen decides that race), or a transfer's receiver takes
an active session over (transfer.transfer_accept). One unlocked read tells which, and refuses
most of a burst of losing accepts without a transaction (bench/accept_race.py)."""

from apps.accounts.models import User
from apps.routing import transfer
from apps.routing.models import Offer, OfferStatus
from apps.sessions import selectors, services
from apps.sessions.models import Session, SessionStatus


def accept_precheck(*, agent: User, public_id: str) -> tuple[str, bool, bool] | None:
    """(status, agent_busy, transfer_offered) of a session visible to `agent`, or None, as
    apps/sessions/selectors.accept_precheck reads the first two; `transfer_offered`: the agent
    holds a live transfer offer of it. Plain SQL: compiling the ORM query cost more than the
    query itself."""
    table, offers = Session._meta.db_table, Offer._meta.db_table
    sql = (
        # Only the table names are formatted in; values are parameters.
        f"SELECT s.status, EXISTS (SELECT 1 FROM {table} b WHERE b.agent_id = %s AND b.status IN (%s, %s)),"  # noqa: S608
        f" EXISTS (SELECT 1 FROM {offers} o WHERE o.session_id = s.id AND o.agent_id = %s AND o.status = %s"
        " AND o.transfer_from_id IS NOT NULL)"
        f" FROM {table} s WHERE s.public_id = %s"
    )
    params: list[int | str] = [
        agent.pk,
        SessionStatus.ACTIVE,
        SessionStatus.PAYMENT,
        agent.pk,
        OfferStatus.LIVE,
        public_id,
    ]
    row = selectors.visible_row(sql, params, agent=agent)
    return None if row is None else (row[0], bool(row[1]), bool(row[2]))


def session_accept(*, public_id: str, agent: User) -> Session:
    """Accept a waiting session, or take over one a colleague transfers to this agent."""
    seen = accept_precheck(agent=agent, public_id=public_id)
    if seen is not None and seen[0] == SessionStatus.ACTIVE and seen[2] and not seen[1]:
        return transfer.transfer_accept(public_id=public_id, agent=agent)  # a colleague hands it on
    return services.session_accept_seen(
        public_id=public_id, agent=agent, seen=None if seen is None else (seen[0], seen[1])
    )
