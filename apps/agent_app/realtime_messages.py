"""The agent's real-time news of the sessions it holds (docs/realtime.md), on its own channel: the
dashboard's cards of held sessions and its session in hand change the moment the session does,
instead of on a read. Subscribers of config/event_subscribers.py.

- `SessionUpdated`: a held session's payment (sent, declined, cancelled, paid), its card reader's
  status, its cart, its moves and end, the customer's accessible mode. The data is the session's
  read, `GET /api/sessions/{id}` (apps/agent_app/api/sessions.py), built once the change is
  committed (a transaction may emit several events; each sends the committed read).
- `ChatMessage`: a customer's message, as on the session's call channel (which the dashboard joins
  only for the session in hand, not for the cards).

Only the agent serving the session hears them: its own private channel, never another agent's."""

from django.db import transaction

from apps.agent_app.api.sessions import session_read
from apps.chat.bodies import message_body
from apps.chat.domain_events import ChatMessagePosted
from apps.chat.models import Sender
from apps.core.events import Event
from apps.core.models import DomainEvent
from apps.realtime.broadcast import broadcast
from apps.realtime.channels import agent_channel
from apps.sessions.models import Session


def _session_of(event: Event) -> Session:
    session = getattr(event, "session", None)
    if not isinstance(session, Session):
        raise TypeError(f"{type(event).__name__} carries no session")
    return session


def session_updated(event: Event, recorded: DomainEvent | None = None) -> None:
    """The session's read, to the agent serving it, as committed: once per transaction however
    many of its events the change emitted (a paid card: PaymentSucceeded and SessionEnded)."""
    send = _SendRead(_session_of(event).pk)
    if send not in (queued for _, queued, *_ in transaction.get_connection().run_on_commit):
        transaction.on_commit(send)


class _SendRead:
    """The on-commit send of one session's read; equal for one session, so it is queued once (a
    rollback drops it with the transaction's other callbacks)."""

    def __init__(self, session_pk: int) -> None:
        self.session_pk = session_pk

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _SendRead) and other.session_pk == self.session_pk

    def __hash__(self) -> int:
        return hash(self.session_pk)

    def __call__(self) -> None:
        session = Session.objects.select_related("agent", "kiosk", "business").filter(pk=self.session_pk).first()
        agent = None if session is None else session.agent
        if session is None or agent is None:
            return  # nobody serves it (a waiting customer): the offers' events tell the agents
        broadcast([agent_channel(agent.pk)], "SessionUpdated", session_read(session, agent))


def customer_wrote(event: ChatMessagePosted, recorded: DomainEvent | None = None) -> None:
    """A customer's message, to the agent serving the session (its own replies it knows)."""
    message = event.message
    agent_id = message.session.agent_id
    if message.sender == Sender.KIOSK and agent_id is not None:
        broadcast([agent_channel(agent_id)], "ChatMessage", message_body(message))
