"""Bodies of sessions shared by responses, the OpenAPI schema and real-time messages: each shape
defined once, as a TypedDict its builder returns; the serializer documenting it is derived
(apps/core/body_shapes.py)."""

from collections.abc import Callable
from datetime import datetime
from typing import Annotated, TypedDict

from apps.accounts.models import User
from apps.core.body_shapes import DateTimeText, Doc, serializer_for
from apps.core.timefmt import iso_z
from apps.kiosks.bodies import KioskBriefBody, kiosk_brief
from apps.sessions.models import Session, SessionStatus


class IdNameBody(TypedDict):
    id: str
    name: str


# The agent's offer (a comment, not a docstring: docstrings become schema descriptions).
class IncomingSessionBody(TypedDict):
    id: str
    kiosk: KioskBriefBody
    business: IdNameBody
    created_at: DateTimeText
    waiting_seconds: int
    customer_locale: Annotated[str, Doc("The customer's language, as the kiosk sent it (e.g. es-MX).")]
    offer_expires_at: Annotated[DateTimeText, Doc("When this agent's offer of the session lapses.")]
    medium: Annotated[str, Doc("video: the customer is on camera; chat: the customer only writes.")]
    accessible_mode: Annotated[
        bool,
        Doc(
            "The customer uses the kiosk's accessible mode and may not see the screen: such sessions are offered "
            "first (the dashboard says so on the card)."
        ),
    ]
    transfer_from: Annotated[
        IdNameBody | None,
        Doc(
            "A transfer offer: the colleague handing this active session on (accept takes it over); "
            "null for a waiting customer."
        ),
    ]


class AgentBriefBody(TypedDict):
    id: str
    name: str
    avatar_url: str | None


class QueueBody(TypedDict):
    """The waiting line while the session is pending (apps/routing/queue.py)."""

    position: Annotated[
        int, Doc("1-based among the owner's waiting sessions, those in accessible mode first, then oldest first.")
    ]
    estimated_wait_seconds: Annotated[
        int | None, Doc("From recent answer and handle times and the agents signed in; null with no basis.")
    ]
    agents_available: Annotated[int, Doc("Agents of the pool signed in and available.")]
    self_service_after_seconds: Annotated[
        int,
        Doc(
            "The owner's self-service threshold: when the wait or the estimate passes it, or no agent is "
            "available, the kiosk offers to order and pay alone (POST .../order, POST .../payment)."
        ),
    ]


class PaymentReaderBody(TypedDict):
    label: str
    status: Annotated[str, Doc("online or offline, as the processor last reported it.")]
    action_status: Annotated[
        str, Doc("The reader's payment action: in_progress, succeeded, failed, canceled or empty.")
    ]
    failure_code: Annotated[
        str,
        Doc(
            "Why the reader's action failed, as the processor says it (e.g. card_declined, insufficient_funds, "
            'card_read_failed); "" unless action_status is failed.'
        ),
    ]


class PaymentBriefBody(TypedDict):
    method: Annotated[
        str,
        Doc("card_present: the customer pays on the kiosk's card reader; card: with the kiosk's card fields."),
    ]
    reader: Annotated[PaymentReaderBody | None, Doc("The card reader (card_present); else null.")]
    failure_code: Annotated[
        str,
        Doc(
            "Why the last card was not taken, as the processor says it (its decline_code, else its code: e.g. "
            'insufficient_funds, expired_card, card_declined, processing_error); "" unless the payment failed.'
        ),
    ]


class ReaderRefusalBody(TypedDict):
    reason: Annotated[str, Doc("offline: the reader is off or not answering; busy: it holds another payment.")]
    refused_at: Annotated[DateTimeText, Doc("When the reader refused the agent's last send to payment.")]


# The status poll's body.
class StatusBody(TypedDict):
    session_id: str
    status: str
    agent: AgentBriefBody | None
    video_channel: str
    created_at: DateTimeText
    accepted_at: DateTimeText | None
    ended_at: DateTimeText | None
    duration_seconds: int | None
    end_reason: str
    queue: Annotated[QueueBody | None, Doc("While pending: the customer's place in line; else null.")]
    payment: Annotated[PaymentBriefBody | None, Doc("While in payment: how the card is taken; else null.")]
    accessible_mode: Annotated[
        bool, Doc("The customer uses the kiosk's accessible mode (POST .../accessible, or the start's field).")
    ]
    medium: Annotated[
        str, Doc("As the start chose it: video (the customer is on camera) or chat (the customer only writes).")
    ]
    reader_refusal: Annotated[
        ReaderRefusalBody | None,
        Doc(
            "While active: the kiosk's card reader refused the agent's last send to payment (409 READER_OFFLINE "
            "or READER_BUSY to the agent): nothing was charged, the cart is kept and the agent sends again. "
            "Null otherwise, and again once a send goes through or the session moves on (ReaderRefused on the "
            "kiosk's channel says it as it happens)."
        ),
    ]


IdName = serializer_for(IdNameBody, "IdName")
IncomingSessionOut = serializer_for(IncomingSessionBody, "IncomingSessionOut")
AgentBrief = serializer_for(AgentBriefBody, "AgentBrief")
QueueOut = serializer_for(QueueBody, "QueueOut")
StatusOut = serializer_for(StatusBody, "StatusOut")


def incoming_session_body(
    session: Session, *, now: datetime, offer_expires_at: datetime, transfer_from: User | None = None
) -> IncomingSessionBody:
    """The agent's offer: the one entry of GET /api/sessions/incoming and the SessionIncoming
    message's `session`, so a dashboard handles both the same way. `waiting_seconds` counts
    from `now`; `transfer_from`, the sender of a transfer offer."""
    sender: IdNameBody | None = (
        None if transfer_from is None else {"id": str(transfer_from.pk), "name": transfer_from.name}
    )
    return {
        "id": session.public_id,
        "kiosk": kiosk_brief(session.kiosk),
        "business": {"id": str(session.business_id), "name": session.business.name},
        "created_at": DateTimeText(iso_z(session.created_at)),
        "waiting_seconds": max(0, int((now - session.created_at).total_seconds())),
        "customer_locale": session.customer_locale,
        "offer_expires_at": DateTimeText(iso_z(offer_expires_at)),
        "medium": session.medium,
        "accessible_mode": session.accessible_mode,
        "transfer_from": sender,
    }


# Billing says how a session in payment takes the card (sessions import no billing code, and
# billing registers its reader of it when the app is ready: apps/billing/apps.py).
_payment_brief: list[Callable[[Session], PaymentBriefBody | None]] = []


def register_payment_brief(brief: Callable[[Session], PaymentBriefBody | None]) -> None:
    _payment_brief[:] = [brief]


# Billing says when the kiosk's reader refused the agent's send to payment (registered as above).
_reader_refusal: list[Callable[[Session], ReaderRefusalBody | None]] = []


def register_reader_refusal(refusal: Callable[[Session], ReaderRefusalBody | None]) -> None:
    _reader_refusal[:] = [refusal]


def status_body(session: Session, *, queue: QueueBody | None = None) -> StatusBody:
    """The status poll's body and the SessionStatusChanged message. Built directly: the poll is
    the hottest request, and a serializer costs as much as its query."""
    agent = session.agent
    brief: AgentBriefBody | None = (
        None if agent is None else {"id": str(agent.pk), "name": agent.name, "avatar_url": agent.avatar_url or None}
    )
    return {
        "session_id": session.public_id,
        "status": session.status,
        "agent": brief,
        "video_channel": session.public_id,
        "created_at": DateTimeText(iso_z(session.created_at)),
        "accepted_at": _iso_or_none(session.accepted_at),
        "ended_at": _iso_or_none(session.ended_at),
        "duration_seconds": session.duration_seconds,
        "end_reason": session.end_reason,
        "queue": queue,
        "payment": _payment_brief[0](session) if session.status == SessionStatus.PAYMENT and _payment_brief else None,
        "accessible_mode": session.accessible_mode,
        "medium": session.medium,
        "reader_refusal": (
            _reader_refusal[0](session) if session.status == SessionStatus.ACTIVE and _reader_refusal else None
        ),
    }


def _iso_or_none(moment: datetime | None) -> DateTimeText | None:
    return None if moment is None else DateTimeText(iso_z(moment))
