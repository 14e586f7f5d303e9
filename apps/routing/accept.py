"""The accept endpoint (POST /api/sessions/{id}/accept): an agent claims a waiting session
(apps/sessions/services.session_accept_seen decides that race), or a transfer's receiver takes
an active session over (transfer.transfer_accept). One unlocked read tells which, and refuses
most of a burst of losing accepts without a transaction (bench/accept_race.py)."""

from apps.accounts.models import User
from apps.routing import transfer
from apps.routing.models import Offer, OfferStatus
from apps.sessions import selectors, services
from apps.sessions.models import Session, SessionStatus
from apps.sessions.seats import Held
from apps.sessions.selectors import PRECHECK_HELD_SQL, AcceptSeen, precheck_held_params


def accept_precheck(*, agent: User, public_id: str) -> tuple[AcceptSeen, bool] | None:
    """What apps/sessions/selectors.accept_precheck reads of a session visible to `agent`, and
    whether the agent holds a live transfer offer of it; None: no such session. Plain SQL:
    compiling the ORM query cost more than the query itself."""
    table, offers = Session._meta.db_table, Offer._meta.db_table
    sql = (
        # Only the table names are formatted in; values are parameters.
        f"SELECT s.status, s.medium, {PRECHECK_HELD_SQL.format(table=table)},"  # noqa: S608
        f" EXISTS (SELECT 1 FROM {offers} o WHERE o.session_id = s.id AND o.agent_id = %s AND o.status = %s"
        " AND o.transfer_from_id IS NOT NULL)"
        f" FROM {table} s WHERE s.public_id = %s"
    )
    params: list[int | str] = [*precheck_held_params(agent), agent.pk, OfferStatus.LIVE, public_id]
    row = selectors.visible_row(sql, params, agent=agent)
    if row is None:
        return None
    return AcceptSeen(row[0], row[1], Held(int(row[2]), bool(row[3]))), bool(row[4])


def session_accept(*, public_id: str, agent: User) -> Session:
    """Accept a waiting session, or take over one a colleague transfers to this agent."""
    read = accept_precheck(agent=agent, public_id=public_id)
    if read is not None and read[0].status == SessionStatus.ACTIVE and read[1]:
        return transfer.transfer_accept(public_id=public_id, agent=agent)  # a colleague hands it on
    return services.session_accept_seen(public_id=public_id, agent=agent, seen=None if read is None else read[0])
