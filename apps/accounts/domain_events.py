"""What happens to an owner (apps.core.events): suspension and reinstatement (docs/decisions/panel.md
"Suspension")."""

from datetime import datetime
from typing import TypedDict

from apps.accounts.models import Business, Owner
from apps.core.events import Event, OwnerOf
from apps.core.timefmt import iso_z


class OwnerSuspendedPayload(TypedDict):
    owner_id: int
    owner_name: str
    suspended_at: str


class OwnerReinstatedPayload(TypedDict):
    owner_id: int
    owner_name: str
    reinstated_at: str


class _OwnerEvent(Event):
    owner: Owner
    at: datetime
    owner_id = OwnerOf("owner.pk")


class OwnerSuspended(_OwnerEvent):
    webhook_name = "owner.suspended"

    def webhook_payload(self) -> OwnerSuspendedPayload:
        return {"owner_id": self.owner.pk, "owner_name": self.owner.name, "suspended_at": iso_z(self.at)}


class OwnerReinstated(_OwnerEvent):
    webhook_name = "owner.reinstated"

    def webhook_payload(self) -> OwnerReinstatedPayload:
        return {"owner_id": self.owner.pk, "owner_name": self.owner.name, "reinstated_at": iso_z(self.at)}


class AgentStatusChanged(Event):
    """An agent's status changed, by the agent (`reason` "") or by the server (`reason` a
    StatusReason: missed offers, gone): its dashboard hears it, the router offers an available
    agent the oldest waiting session it can take."""

    agent_id: int
    agent_owner_id: int | None
    status: str
    reason: str = ""

    @property
    def owner_id(self) -> int | None:  # type: ignore[override]  # platform agents have none
        return self.agent_owner_id


class BusinessChanged(Event):
    """The settings of a business changed (panel, owner API or admin): what its kiosks hold of it
    in their cached credentials (currency, tax rate, name, ...) is stale. No webhook."""

    business: Business
    owner_id = OwnerOf("business.owner_id")
