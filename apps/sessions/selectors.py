"""Reads of sessions, always scoped to the caller's tenant: a session outside it is 404."""

import functools
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import connection
from django.db.models import QuerySet

from apps.accounts.models import User
from apps.core.errors import DomainError, ErrorCode
from apps.kiosks.models import Kiosk
from apps.sessions import payloads, status_cache
from apps.sessions.models import Session, SessionStatus

_NOT_FOUND = "No such session."


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


# The status poll is the hottest request: every waiting kiosk, every 2 s. Compiling its ORM form
# (filter + select_related + first) costs several times what PostgreSQL takes to answer it, so
# the statement is built once from the models' own fields, and its row goes through the same
# database converters and `from_db` the ORM would use (deferred instances: only these fields).
_STATUS_FIELDS = {"id", "public_id", "status", "created_at", "accepted_at", "ended_at", "end_reason", "agent"}
_STATUS_AGENT_FIELDS = {"id", "name", "avatar_url"}


@dataclass(frozen=True)
class _StatusPollStatement:
    sql: str
    session_attnames: list[str]  # in the model's field order, as from_db wants them
    agent_attnames: list[str]
    converters: list[list]  # per column: (converter, expression) pairs, often none


@functools.cache
def _status_poll_statement() -> _StatusPollStatement:
    quote = connection.ops.quote_name
    session_fields = [field for field in Session._meta.concrete_fields if field.name in _STATUS_FIELDS]
    agent_fields = [field for field in User._meta.concrete_fields if field.name in _STATUS_AGENT_FIELDS]
    columns = [field.get_col("s") for field in session_fields] + [field.get_col("a") for field in agent_fields]
    select = ", ".join(f"{column.alias}.{quote(column.target.column)}" for column in columns)
    session_column = {field.name: f"s.{quote(field.column)}" for field in Session._meta.concrete_fields}
    tables = f"{quote(Session._meta.db_table)} s LEFT JOIN {quote(User._meta.db_table)} a"
    join = f"a.{quote(User._meta.pk.column)} = {session_column['agent']}"
    where = f"{session_column['kiosk']} = %s AND {session_column['public_id']} = %s"
    return _StatusPollStatement(
        # Only identifiers from the models' metadata are formatted in; values are parameters.
        sql=f"SELECT {select} FROM {tables} ON {join} WHERE {where}",  # noqa: S608
        session_attnames=[field.attname for field in session_fields],
        agent_attnames=[field.attname for field in agent_fields],
        converters=[
            [
                (converter, column)
                for converter in connection.ops.get_db_converters(column) + column.get_db_converters(connection)
            ]
            for column in columns
        ],
    )


def session_status_for_kiosk(*, kiosk: Kiosk, public_id: str) -> Session:
    """`session_for_kiosk` for the status poll: the session's status fields and its agent's
    public ones, in one statement that skips the query compiler."""
    statement = _status_poll_statement()
    with connection.cursor() as cursor:
        cursor.execute(statement.sql, [kiosk.pk, public_id])
        row = cursor.fetchone()
    if row is None:
        raise DomainError(ErrorCode.SESSION_NOT_FOUND, _NOT_FOUND)
    values = []
    for value, converters in zip(row, statement.converters, strict=True):
        for converter, column in converters:
            value = converter(value, column, connection)
        values.append(value)
    split = len(statement.session_attnames)
    session = Session.from_db(connection.alias, statement.session_attnames, values[:split])
    session.kiosk = kiosk
    session.agent = (
        User.from_db(connection.alias, statement.agent_attnames, values[split:]) if session.agent_id else None
    )
    return session


def session_status_body_for_kiosk(*, kiosk: Kiosk, public_id: str) -> dict:
    """The status poll's body: the cached copy while the session has not moved (status_cache)."""

    def read() -> dict:
        return payloads.status_body(session_status_for_kiosk(kiosk=kiosk, public_id=public_id))

    return status_cache.status_body(kiosk_id=kiosk.pk, public_id=public_id, read=read)


def incoming_sessions_for_agent(agent: User) -> QuerySet[Session]:
    """Pending sessions the agent may accept, oldest first."""
    return (
        sessions_visible_to_agent(agent)
        .filter(status=SessionStatus.PENDING)
        .select_related("kiosk", "business")
        .order_by("created_at", "pk")[: settings.INCOMING_SESSIONS_LIMIT]
    )


def current_session_for_agent(agent: User) -> Session:
    """The agent's live (active or in payment) session: the business it currently works for."""
    session = (
        Session.objects.filter(agent=agent, status__in=(SessionStatus.ACTIVE, SessionStatus.PAYMENT))
        .select_related("business")
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
        .first()
    )


def session_accepted_by_agent(*, agent: User, public_id: str) -> Session:
    """One session this agent accepted, in any status. Every other session (waiting, another
    agent's, another owner's) is 404, the same answer for all."""
    session = Session.objects.filter(agent=agent, public_id=public_id).select_related("kiosk", "business").first()
    if session is None:
        raise DomainError(ErrorCode.SESSION_NOT_FOUND, _NOT_FOUND)
    return session


def sessions_accepted_by_agent_since(*, agent: User, since: datetime) -> QuerySet[Session]:
    """The sessions the agent accepted at or after `since`, newest first, with their orders."""
    return (
        Session.objects.filter(agent=agent, accepted_at__gte=since)
        .select_related("kiosk", "business", "order")
        .order_by("-accepted_at", "-pk")
    )
