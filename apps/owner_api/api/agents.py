"""Owner API agents (agents:write): the owner's agents with their seats, each agent's own number
of customers at once, and the owner's number for the agents without one. Another owner's agent
is 404."""

from rest_framework import serializers

from apps.accounts import selectors as account_selectors
from apps.accounts.models import User
from apps.api.operations import Data
from apps.core.errors import DomainError, ErrorCode
from apps.owner_api.api.base import OwnerApiRequest, OwnerAPIView, enveloped, owner_operation
from apps.owner_api.scopes import Scope
from apps.routing import routing_settings, services
from apps.routing.capacity import seats_of

LOW, HIGH = routing_settings.LIMITS["agent_capacity"]


class AgentOut(serializers.Serializer[None]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    email = serializers.EmailField()
    agent_status = serializers.CharField()
    capacity = serializers.IntegerField(help_text="Customers it serves at once: its own number, else the owner's.")
    own_capacity = serializers.IntegerField(allow_null=True, help_text="Its own number; null: the owner's.")
    sessions_held = serializers.IntegerField(help_text="Its sessions now active or in payment.")


class AgentCapacityIn(serializers.Serializer[None]):
    capacity = serializers.IntegerField(
        min_value=LOW, max_value=HIGH, allow_null=True, help_text="Null: the owner's number."
    )


class OwnerCapacityOut(serializers.Serializer[None]):
    agent_capacity = serializers.IntegerField(help_text="Customers each agent without its own number serves at once.")
    own = serializers.BooleanField(help_text="False: the service's default (ROUTING_AGENT_CAPACITY) applies.")


class OwnerCapacityIn(serializers.Serializer[None]):
    agent_capacity = serializers.IntegerField(
        min_value=LOW, max_value=HIGH, allow_null=True, help_text="Null: the service's default."
    )


def _bodies(agents: list[User]) -> list[dict[str, object]]:
    seats = seats_of([agent.pk for agent in agents])
    return [
        {
            "id": agent.pk,
            "name": agent.name,
            "email": agent.email,
            "agent_status": agent.agent_status,
            "capacity": seats[agent.pk].capacity,
            "own_capacity": agent.agent_capacity,
            "sessions_held": seats[agent.pk].held.count,
        }
        for agent in agents
    ]


def _owned_agent(owner_id: int, agent_id: int) -> User:
    agent = account_selectors.agents_of_owner(owner_id).filter(pk=agent_id).first()
    if agent is None:
        raise DomainError(ErrorCode.NOT_FOUND, "No such agent.")
    return agent


class AgentListView(OwnerAPIView):
    @owner_operation(Scope.AGENTS_WRITE, enveloped("OwnerAgents", AgentOut(many=True)))
    def get(self, request: OwnerApiRequest) -> list[dict[str, object]]:
        """The owner's agents, with how many customers each serves at once and holds now"""
        return _bodies(list(account_selectors.agents_of_owner(request.user.owner_id).order_by("name", "pk")))


class AgentCapacityView(OwnerAPIView):
    @owner_operation(
        Scope.AGENTS_WRITE,
        enveloped("OwnerAgent", AgentOut()),
        body=AgentCapacityIn,
        operation_id="owner_agent_capacity_set",
        description=f"At most one on video, the others paying or writing in the chat. {LOW} to {HIGH}; "
        "sessions held beyond a lowered number stay with the agent. Another owner's agent is 404 NOT_FOUND.",
    )
    def put(self, request: OwnerApiRequest, data: Data, agent_id: int) -> dict[str, object]:
        """Set how many customers an agent serves at once (null: the owner's number)"""
        agent = _owned_agent(request.user.owner_id, agent_id)
        services.agent_capacity_set(agent=agent, capacity=data["capacity"])
        return _bodies([agent])[0]


OWNER_CAPACITY = enveloped("OwnerCapacity", OwnerCapacityOut())


def _owner_capacity(owner_id: int) -> dict[str, object]:
    stored = routing_settings.stored_capacity(owner_id)
    return {"agent_capacity": routing_settings.routing_for_owner(owner_id).agent_capacity, "own": stored is not None}


class OwnerCapacityView(OwnerAPIView):
    @owner_operation(Scope.AGENTS_WRITE, OWNER_CAPACITY, operation_id="owner_capacity_get")
    def get(self, request: OwnerApiRequest) -> dict[str, object]:
        """Customers per agent"""
        return _owner_capacity(request.user.owner_id)

    @owner_operation(Scope.AGENTS_WRITE, OWNER_CAPACITY, body=OwnerCapacityIn, operation_id="owner_capacity_set")
    def put(self, request: OwnerApiRequest, data: Data) -> dict[str, object]:
        """Set how many customers each agent without its own number serves at once"""
        services.owner_capacity_set(owner_id=request.user.owner_id, capacity=data["agent_capacity"])
        return _owner_capacity(request.user.owner_id)
