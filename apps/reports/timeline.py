"""A session's timeline for the panel: started, offered to whom, accepted, transferred, cart and
payment changes, the chat's messages with who wrote them, ended; read from the Session, Offer,
Assignment, payment, refund and chat rows and the stored domain events of the session and its
order."""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q

from apps.billing.models import Payment, Refund
from apps.chat.models import ChatMessage, Sender
from apps.core.models import DomainEvent
from apps.orders.models import Order
from apps.sessions.models import Session


@dataclass(frozen=True)
class Moment:
    at: datetime
    what: str
    detail: str = ""


def session_timeline(session: Session) -> list[Moment]:
    moments = [Moment(session.created_at, "Started", f"{session.kiosk.name}, {session.customer_locale}")]
    for offer in session.offers.select_related("agent").order_by("created_at", "pk"):
        moments.append(Moment(offer.created_at, "Offered", f"to {offer.agent.name}: {offer.status}"))
    for assignment in session.assignments.select_related("agent").order_by("started_at", "pk"):
        name = assignment.agent.name if assignment.agent else "a removed agent"
        label = "Accepted" if assignment.via == "accept" else "Transferred"
        moments.append(Moment(assignment.started_at, label, f"by {name}" if label == "Accepted" else f"to {name}"))
    if session.accepted_at and not any(moment.what == "Accepted" for moment in moments):
        agent = session.agent.name if session.agent else ""
        moments.append(Moment(session.accepted_at, "Accepted", f"by {agent}" if agent else ""))
    order = Order.objects.filter(session=session).first()
    events = Q(payload__session_id=session.pk)
    if order is not None:
        moments.append(Moment(order.created_at, "Cart started", f"order {order.number}"))
        for payment in Payment.objects.filter(order=order).order_by("created_at", "pk"):
            moments.append(
                Moment(payment.created_at, "Payment attempt", f"{payment.amount_cents} cents: {payment.status}")
            )
        for refund in Refund.objects.filter(order=order).order_by("created_at", "pk"):
            moments.append(Moment(refund.created_at, "Refund", f"{refund.amount_cents} cents"))
        events |= Q(payload__order_id=order.pk)
    for event in DomainEvent.objects.filter(Q(owner_id=session.owner_id) & events).order_by("created_at", "pk"):
        moments.append(Moment(event.created_at, "Event", event.name))
    for message in ChatMessage.objects.filter(session=session).select_related("agent").order_by("id"):
        moments.append(Moment(message.created_at, f"Message from {_writer(message)}", message.text))
    if session.ended_at:
        moments.append(Moment(session.ended_at, "Ended", f"{session.status} ({session.end_reason or 'no reason'})"))
    return sorted(moments, key=lambda moment: moment.at)


def _writer(message: ChatMessage) -> str:
    if message.sender == Sender.KIOSK:
        return "the customer"
    return message.agent.name if message.agent else "a removed agent"
