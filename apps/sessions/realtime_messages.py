"""The real-time messages of session events (docs/realtime.md): subscribers of
config/event_subscribers.py. Built at emit, from the session as the transition left it; the
broadcast API sends them after commit, so a change that rolls back tells nobody. What agents
hear of offers and transfers is routing's (apps/routing/realtime_messages.py)."""

from apps.core.models import DomainEvent
from apps.realtime.broadcast import broadcast
from apps.realtime.channels import call_channel, kiosk_channel
from apps.sessions.bodies import status_body
from apps.sessions.domain_events import SessionEnded, SessionEvent
from apps.sessions.queue_hook import queue_of


def session_status_changed(
    event: SessionEvent,
    recorded: DomainEvent | None = None,
) -> None:
    """To the kiosk, after every transition: the body of GET /api/public/sessions/{id}/status."""
    session = event.session
    body = dict(status_body(session, queue=queue_of(session)))  # the broadcast API takes a plain dict
    broadcast([kiosk_channel(session.kiosk_id)], "SessionStatusChanged", body)


def call_ended(event: SessionEnded, recorded: DomainEvent | None = None) -> None:
    """The session ended: nobody is a member of its call any more. Its kiosk and agent are dropped
    from the call channel (a signature is only checked at subscription, so without this the two
    could go on exchanging client events) and told CallMembershipChanged with reason "ended";
    the channel's auth refuses them from now on. A session nobody accepted had no call."""
    if event.was_pending:
        return
    body = {"session_id": event.session.public_id, "reason": "ended", "agent_id": None}
    broadcast([call_channel(event.session.public_id)], "CallMembershipChanged", body, revoke=True)
