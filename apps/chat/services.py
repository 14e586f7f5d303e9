"""A session's chat: who may read and write it, and the one way a message is written.

The participants are the session's kiosk and its current agent (after a transfer, the new one);
anyone else gets 404, the answer for a session of another owner. Reading works for the session's
whole life (the history stays with it); writing only while the session is live (active or in
payment). Text is plain: stripped, 1 to CHAT_MESSAGE_MAX_LENGTH characters, no control
characters but newlines; clients show it as text."""

from django.conf import settings
from django.db import transaction

from apps.accounts.models import User
from apps.chat.domain_events import ChatMessagePosted
from apps.chat.models import ChatMessage, Sender
from apps.core import events
from apps.core.errors import DomainError, ErrorCode
from apps.kiosks.models import Kiosk
from apps.sessions import selectors
from apps.sessions.models import ENDED_STATUSES, Session, SessionStatus

_LIVE = (SessionStatus.ACTIVE, SessionStatus.PAYMENT)
PAGE_MAX = 100


def session_for_kiosk(kiosk: Kiosk, public_id: str, *, lock: bool = False) -> Session:
    return selectors.session_for_kiosk(kiosk=kiosk, public_id=public_id, lock=lock)


def session_readable_by_agent(agent: User, public_id: str) -> Session:
    """The chat is read by every agent who served the session: its agent, and one who handed it
    over (as the session itself, read-only); only its current agent writes."""
    return selectors.session_accepted_by_agent(agent=agent, public_id=public_id)


def session_for_agent(agent: User, public_id: str, *, lock: bool = False) -> Session:
    session = selectors.session_visible_to_agent(agent=agent, public_id=public_id, lock=lock)
    # one who served it hears why it may not write; one who never did, 404 (from the read)
    if session.agent_id != agent.pk and session_readable_by_agent(agent, public_id):
        raise DomainError(ErrorCode.SESSION_NOT_OWNED, "A colleague serves this session now.")
    return session


def messages(session: Session, *, after: int = 0, limit: int = 50) -> tuple[list[ChatMessage], bool]:
    """A page of the session's messages, oldest first, after message id `after`; and whether
    more follow."""
    rows = list(
        ChatMessage.objects.filter(session=session, id__gt=after)
        .select_related("session", "agent")
        .order_by("id")[: limit + 1]
    )
    return rows[:limit], len(rows) > limit


def clean_text(text: str) -> str:
    text = text.strip()
    if any(ord(char) < 32 and char not in "\n\t" for char in text) or "\x7f" in text:
        raise DomainError(
            ErrorCode.VALIDATION_ERROR, "A message is plain text.", details={"text": ["Plain text only."]}
        )
    if not text:
        raise DomainError(ErrorCode.VALIDATION_ERROR, "A message needs text.", details={"text": ["Write something."]})
    limit = settings.CHAT_MESSAGE_MAX_LENGTH
    if len(text) > limit:
        raise DomainError(
            ErrorCode.VALIDATION_ERROR,
            "A message is at most {limit} characters.",
            params={"limit": limit},
            details={"text": [f"At most {limit} characters."]},
        )
    return text


def post(*, text: str, kiosk: Kiosk | None = None, agent: User | None = None, public_id: str) -> ChatMessage:
    """Write a message as the session's kiosk or its agent; both hear ChatMessage on commit."""
    text = clean_text(text)
    with transaction.atomic():
        if agent is not None:
            session = session_for_agent(agent, public_id, lock=True)
        else:
            assert kiosk is not None
            session = session_for_kiosk(kiosk, public_id, lock=True)
        if session.status in ENDED_STATUSES:
            raise DomainError(ErrorCode.SESSION_ALREADY_ENDED, "This session has already ended.")
        if session.status not in _LIVE:
            raise DomainError(ErrorCode.INVALID_STATE, "The chat opens once an agent has accepted the session.")
        message = ChatMessage.objects.create(
            session=session, sender=Sender.AGENT if agent is not None else Sender.KIOSK, agent=agent, text=text
        )
        events.emit(ChatMessagePosted(message=message))
    return message
