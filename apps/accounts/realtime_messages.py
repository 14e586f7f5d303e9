"""The real-time message of an agent's status (docs/realtime.md): a subscriber of
config/event_subscribers.py, sent on commit."""

from apps.accounts.domain_events import AgentStatusChanged
from apps.accounts.models import User
from apps.accounts.services import status_message
from apps.core.models import DomainEvent
from apps.realtime.broadcast import broadcast
from apps.realtime.channels import agent_channel


def agent_status_changed(event: AgentStatusChanged, recorded: DomainEvent | None = None) -> None:
    """To the agent's own channel (every tab of its dashboard): the new status, and when the
    server set it, why, in words the dashboard can show."""
    missed = 0
    if event.reason:
        missed = User.objects.filter(pk=event.agent_id).values_list("missed_offers", flat=True).first() or 0
    body = {
        "status": event.status,
        "status_reason": event.reason,
        "status_message": status_message(reason=event.reason, missed_offers=missed),
    }
    broadcast([agent_channel(event.agent_id)], "AgentStatusChanged", body)
