"""Reads of sessions, always scoped to the caller's tenant: a session outside it is 404."""

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple, TypeVar

from django.db import connection
from django.db.models import DateTimeField, Field, Model, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_noop

from apps.accounts.models import User
from apps.core.errors import DomainError, ErrorCode
from apps.kiosks.models import Kiosk
from apps.sessions import status_cache
from apps.sessions.bodies import StatusBody, status_body
from apps.sessions.models import Assignment, Medium, Session, SessionStatus
from apps.sessions.queue_hook import queue_of
from apps.sessions.seats import Held

_NOT_FOUND = gettext_noop("No such session.")  # a msgid: the panel translates refusals


def sessions_visible_to_agent(agent: User) -> QuerySet[Session]:
    """An owner's agents see that owner's sessions; ownerless (platform) agents see all."""
    sessions = Session.objects.all()
    if agent.owner_id is not None:
        sessions = sessions.filter(owner_id=agent.owner_id)
    return sessions


def session_visible_to_agent(*, agent: User, public_id: str, lock: bool = False) -> Session:
    sessions = sessions_visible_to_agent(agent)
    if lock:
        sessions = sessions.select_for_update(of=("self",))
    session = sessions.filter(public_id=public_id).first()
    if session is None:
        raise DomainError(ErrorCode.SESSION_NOT_FOUND, _NOT_FOUND)
    return session


def session_for_kiosk(*, kiosk: Kiosk, public_id: str, lock: bool = False) -> Session:
    """A kiosk sees only its own sessions (with the agent, for the status body: one query)."""
    sessions = Session.objects.filter(kiosk=kiosk)
    sessions = sessions.select_for_update(of=("self",)) if lock else sessions.select_related("agent")
    session = sessions.filter(public_id=public_id).first()
    if session is None:
        raise DomainError(ErrorCode.SESSION_NOT_FOUND, _NOT_FOUND)
    return session


# The status poll is the hottest request: every waiting kiosk, every 2 s. Most polls are answered
# from the status copy (status_cache); the rest read here. Compiling the ORM form of this read
# (filter + select_related + only) costs about three times what the database takes to answer it,
# so it is one plain SQL statement whose row becomes model instances through the documented
# `Model.from_db` (deferred instances: only these fields).
_STATUS_FIELDS = (
    "id",
    "public_id",
    "owner",
    "status",
    "customer_locale",  # the queue estimate is for the customer's language
    "created_at",
    "accepted_at",
    "ended_at",
    "end_reason",
    "agent",
)
_STATUS_AGENT_FIELDS = ("id", "name", "avatar_url")


@dataclass(frozen=True)
class _StatusRead:
    sql: str
    session_fields: list[Field[Any, Any]]  # in the model's field order, as from_db wants them
    agent_fields: list[Field[Any, Any]]


def _column(model: type[Model], name: str) -> str:
    field = model._meta.get_field(name)
    assert isinstance(field, Field) and field.column is not None  # a concrete field, not a reverse relation
    return field.column


@functools.cache
def _status_read() -> _StatusRead:
    # concrete_fields order, as Model.from_db's documentation reads it
    session_fields = [field for field in Session._meta.concrete_fields if field.name in _STATUS_FIELDS]
    agent_fields = [field for field in User._meta.concrete_fields if field.name in _STATUS_AGENT_FIELDS]
    columns = [f's."{field.column}"' for field in session_fields] + [f'a."{field.column}"' for field in agent_fields]
    session_column = {name: f's."{_column(Session, name)}"' for name in ("agent", "kiosk", "public_id")}
    return _StatusRead(
        # Only identifiers from the models' metadata are formatted in; values are parameters.
        sql=(
            f"SELECT {', '.join(columns)} "  # noqa: S608
            f'FROM "{Session._meta.db_table}" s LEFT JOIN "{User._meta.db_table}" a '
            f'ON a."{User._meta.get_field("id").column}" = {session_column["agent"]} '
            f"WHERE {session_column['kiosk']} = %s AND {session_column['public_id']} = %s"
        ),
        session_fields=session_fields,
        agent_fields=agent_fields,
    )


_M = TypeVar("_M", bound=Model)


def _instance(model: type[_M], fields: Sequence[Field[Any, Any]], values: Sequence[object]) -> _M:
    loaded = [
        # SQLite hands back naive datetimes (stored in UTC); PostgreSQL aware ones.
        timezone.make_aware(value, UTC)
        if isinstance(field, DateTimeField) and isinstance(value, datetime) and timezone.is_naive(value)
        else value
        for field, value in zip(fields, values, strict=True)
    ]
    return model.from_db(connection.alias, [field.attname for field in fields], loaded)


def session_status_for_kiosk(*, kiosk: Kiosk, public_id: str) -> Session:
    """`session_for_kiosk` for the status poll: the session's status fields and its agent's
    public ones, in one statement."""
    read = _status_read()
    with connection.cursor() as cursor:
        cursor.execute(read.sql, [kiosk.pk, public_id])
        row = cursor.fetchone()
    if row is None:
        raise DomainError(ErrorCode.SESSION_NOT_FOUND, _NOT_FOUND)
    split = len(read.session_fields)
    session = _instance(Session, read.session_fields, row[:split])
    session.kiosk = kiosk
    session.agent = _instance(User, read.agent_fields, row[split:]) if session.agent_id else None
    return session


def session_status_body_for_kiosk(*, kiosk: Kiosk, public_id: str) -> Mapping[str, object]:
    """The status poll's body: the cached copy while the session has not moved (status_cache)."""

    def read() -> StatusBody:
        session = session_status_for_kiosk(kiosk=kiosk, public_id=public_id)
        return status_body(session, queue=queue_of(session))

    return status_cache.status_body(kiosk_id=kiosk.pk, public_id=public_id, read=read)


# An agent serving several customers (apps/sessions/seats.py): its video conversation first, then
# its other active sessions, then those in payment; oldest first ("active" sorts before "payment",
# "video" after "chat").
HELD_FIRST = ("status", "-medium", "accepted_at", "pk")


def current_session_for_agent(agent: User) -> Session:
    """The agent's live (active or in payment) session: the business it currently works for."""
    session = (
        Session.objects.filter(agent=agent, status__in=(SessionStatus.ACTIVE, SessionStatus.PAYMENT))
        .select_related("business")
        .order_by(*HELD_FIRST)
        .first()
    )
    if session is None:
        raise DomainError(ErrorCode.NO_ACTIVE_SESSION, "Accept a session first: the menu is that business's menu.")
    return session


def live_session_of_agent(agent: User) -> Session | None:
    """The session the agent accepted and is still working (active or in payment), if any: what
    a dashboard restores after a reload."""
    return (
        Session.objects.filter(agent=agent, status__in=(SessionStatus.ACTIVE, SessionStatus.PAYMENT))
        .select_related("kiosk", "business")
        .order_by(*HELD_FIRST)
        .first()
    )


def held_sessions_of_agent(agent: User) -> list[Session]:
    """Every session the agent holds (active or in payment), in the order `live_session_of_agent`
    picks its first: what a dashboard serving several customers restores after a reload."""
    return list(
        Session.objects.filter(agent=agent, status__in=(SessionStatus.ACTIVE, SessionStatus.PAYMENT))
        .select_related("kiosk", "business")
        .order_by(*HELD_FIRST)
    )


def session_accepted_by_agent(*, agent: User, public_id: str) -> Session:
    """One session this agent accepted or served, in any status: also one it handed to a
    colleague (its Assignment rows say it served it), which it sees read-only, with who serves it
    now (docs/decisions/routing.md). Every other session (waiting, another agent's, another owner's) is
    404, the same answer for all."""
    served = Assignment.objects.filter(agent=agent).values("session_id")
    session = (
        Session.objects.filter(Q(agent=agent) | Q(pk__in=served), public_id=public_id)
        .select_related("kiosk", "business", "agent")
        .first()
    )
    if session is None:
        raise DomainError(ErrorCode.SESSION_NOT_FOUND, _NOT_FOUND)
    return session


def sessions_accepted_by_agent_since(*, agent: User, since: datetime) -> QuerySet[Session]:
    """The sessions the agent accepted or took over (a transfer) at or after `since`, newest
    first, with their orders: also those it handed to a colleague since (its Assignment rows),
    as `session_accepted_by_agent` reads them."""
    served = Assignment.objects.filter(agent=agent, started_at__gte=since).values("session_id")
    return (
        Session.objects.filter(Q(agent=agent, accepted_at__gte=since) | Q(pk__in=served))
        .select_related("kiosk", "business", "order", "agent")
        .order_by("-accepted_at", "-pk")
    )


class AcceptSeen(NamedTuple):
    """The unlocked read of an accept: the session's status and medium, what the agent holds."""

    status: str
    medium: str
    held: Held


# The columns of accept_precheck's read after the session's own: the agent's held sessions and
# whether one is a video conversation (parameters: agent id, the held statuses; agent id, active, video).
PRECHECK_HELD_SQL = (
    "(SELECT count(*) FROM {table} b WHERE b.agent_id = %s AND b.status IN (%s, %s)),"
    " EXISTS (SELECT 1 FROM {table} b WHERE b.agent_id = %s AND b.status = %s AND b.medium = %s)"
)


def precheck_held_params(agent: User) -> list[int | str]:
    return [agent.pk, SessionStatus.ACTIVE, SessionStatus.PAYMENT, agent.pk, SessionStatus.ACTIVE, Medium.VIDEO]


def accept_precheck(*, agent: User, public_id: str) -> AcceptSeen | None:
    """What an accept sees of a session visible to `agent`, or None: the unlocked read that
    refuses most of a burst of accepts. Plain SQL: compiling the ORM query cost more than the
    query itself, on the path every losing agent of a burst takes (bench/accept_race.py).
    apps/routing/accept.py reads the same with the agent's transfer offer of it."""
    table = Session._meta.db_table
    # Only the table name is formatted in; values are parameters.
    sql = f"SELECT s.status, s.medium, {PRECHECK_HELD_SQL.format(table=table)} FROM {table} s WHERE s.public_id = %s"  # noqa: S608
    row = visible_row(sql, [*precheck_held_params(agent), public_id], agent=agent)
    return None if row is None else AcceptSeen(row[0], row[1], Held(int(row[2]), bool(row[3])))


def visible_row(sql: str, params: list[int | str], *, agent: User) -> tuple[Any, ...] | None:
    """The first row of `sql`, a statement on the sessions table as `s` ending in its WHERE
    clause, among the sessions `agent` may see (the rule of sessions_visible_to_agent)."""
    if agent.owner_id is not None:
        sql += " AND s.owner_id = %s"
        params = [*params, agent.owner_id]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row: tuple[Any, ...] | None = cursor.fetchone()
    return row


def sessions_of_owner(owner_id: int) -> QuerySet[Session]:
    """Every session of the owner (the panel's reads and figures start here)."""
    return Session.objects.filter(owner_id=owner_id)
