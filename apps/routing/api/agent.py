"""Agent API for routing: the incoming list (the agent's offer), accept (a waiting session, or an
active one a colleague transfers) and transfer."""

import math
from typing import Any

from django.utils import timezone
from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

from apps.accounts.api.base import AgentAPIView, AgentRequest
from apps.accounts.models import User
from apps.api.operations import NO_CONTENT, Answer, Data, operation
from apps.core.timefmt import iso_z
from apps.routing import accept, offers, services, transfer
from apps.routing.models import Offer
from apps.sessions.api.agent import SessionCallOut
from apps.sessions.bodies import IdName, IncomingSessionBody, IncomingSessionOut, incoming_session_body
from apps.sessions.models import Session


class AcceptedSessionOut(SessionCallOut):
    kiosk = IdName()
    business = IdName()
    customer_locale = serializers.CharField(help_text="The customer's language, as the kiosk sent it (e.g. es-MX).")
    accessible_mode = serializers.BooleanField(
        help_text="The customer uses the kiosk's accessible mode and may not see the screen (the dashboard says so; "
        "POST .../read-aloud has the kiosk speak the cart)."
    )


class IncomingView(AgentAPIView):
    @operation(Answer(inline_serializer("IncomingOut", {"sessions": IncomingSessionOut(many=True)}), built=True))
    def get(self, request: AgentRequest) -> dict[str, list[IncomingSessionBody]]:
        """The session offered to this agent now (at most one), with its offer's expiry

        Polling this marks the agent signed in for AGENT_SIGNED_IN_SECONDS (10 s), as holding its
        private real-time channel does; only signed-in available agents are offered sessions."""
        now = timezone.now()
        services.agent_polled(request.user)
        offer = offers.current_offer(request.user, now=now)
        if offer is None:
            return {"sessions": []}
        # The offer may have been made after `now` (routing runs beside this request): its
        # waiting_seconds count to the moment it is described, or the dashboard would count
        # seconds the offer never had.
        body = incoming_session_body(
            offer.session, now=timezone.now(), offer_expires_at=offer.expires_at, transfer_from=offer.transfer_from
        )
        return {"sessions": [body]}


class AcceptView(AgentAPIView):
    @operation(Answer(inline_serializer("AcceptOut", {"session": AcceptedSessionOut()})))
    def post(self, request: AgentRequest, public_id: str) -> dict[str, Session]:
        """Accept a pending session (first caller wins; others get 409)"""
        return {"session": accept.session_accept(public_id=public_id, agent=request.user)}


class TransferIn(serializers.Serializer[None]):
    to_agent_id = serializers.IntegerField(
        required=False, min_value=1, help_text="An available colleague of the same pool (one of the two fields)."
    )
    language = serializers.RegexField(
        r"^[a-z]{2,3}$",
        required=False,
        help_text="A primary language subtag (e.g. es): offered to that language's free agents as a wave.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("to_agent_id" in attrs) == ("language" in attrs):
            raise serializers.ValidationError("Give exactly one of to_agent_id and language.")
        return attrs


class TransferOfferOut(serializers.Serializer[None]):
    agent = IdName()
    expires_at = serializers.DateTimeField()


class TransferCandidateOut(serializers.Serializer[User]):
    id = serializers.CharField(source="pk")
    name = serializers.CharField()
    languages = serializers.ListField(child=serializers.CharField())


def _pending_body(live: list[Offer]) -> dict[str, object] | None:
    if not live:
        return None
    expires_at = min(offer.expires_at for offer in live)
    return {
        "offers": [
            {"agent": {"id": str(offer.agent_id), "name": offer.agent.name}, "expires_at": iso_z(offer.expires_at)}
            for offer in live
        ],
        "expires_at": iso_z(expires_at),
        "seconds_left": max(0, math.ceil((expires_at - timezone.now()).total_seconds())),
    }


class TransferView(AgentAPIView):
    @operation(
        Answer(
            inline_serializer(
                "TransferCandidates",
                {
                    "agents": TransferCandidateOut(many=True),
                    "languages": serializers.ListField(
                        child=serializers.CharField(), help_text="The languages those agents speak, sorted."
                    ),
                    "pending": inline_serializer(
                        "TransferPending",
                        {
                            "offers": TransferOfferOut(many=True),
                            "expires_at": serializers.DateTimeField(),
                            "seconds_left": serializers.IntegerField(help_text="Until the offers lapse, from now."),
                        },
                        allow_null=True,
                        help_text="Your transfer of it waiting for an answer (as POST answered it), or null.",
                    ),
                },
            ),
            built=True,
        )
    )
    def get(self, request: AgentRequest, public_id: str) -> dict[str, object]:
        """Who could take your active session now, and your transfer of it waiting for an answer"""
        agents = transfer.transfer_candidates(public_id=public_id, agent=request.user)
        languages = sorted({language for agent in agents for language in agent.languages or ()})
        candidates = TransferCandidateOut(agents, many=True).data  # type: ignore[arg-type]  # the stubs take one instance
        live = transfer.transfer_pending(public_id=public_id, agent=request.user)
        return {"agents": candidates, "languages": languages, "pending": _pending_body(live)}

    @operation(NO_CONTENT)
    def delete(self, request: AgentRequest, public_id: str) -> None:
        """Take back your transfer before a colleague accepts it: you keep the session

        The receivers' offers are withdrawn (SessionWithdrawn, reason transfer_cancelled). 409
        TRANSFER_NOT_PENDING with no transfer waiting; 409 TRANSFER_ALREADY_ACCEPTED once a
        colleague took it."""
        transfer.transfer_cancel(public_id=public_id, agent=request.user)

    @operation(
        Answer(
            inline_serializer(
                "TransferOut",
                {
                    "session_id": serializers.CharField(),
                    "offers": TransferOfferOut(many=True),
                    "expires_at": serializers.DateTimeField(help_text="Unanswered by then, you keep the session."),
                    "offer_seconds": serializers.IntegerField(help_text="How long the offers last, from now."),
                },
            ),
            202,
            built=True,
        ),
        body=TransferIn,
    )
    def post(self, request: AgentRequest, public_id: str, data: Data) -> dict[str, object]:
        """Hand your active session to a colleague or to a language's agents (they accept it)

        The session stays active with you until a receiver accepts it with POST
        /api/sessions/{id}/accept; you then hear SessionTransferred and are available again.
        Unanswered, you keep it and hear TransferLapsed."""
        made = transfer.transfer_start(
            public_id=public_id, agent=request.user, to_agent_id=data.get("to_agent_id"), language=data.get("language")
        )
        return {
            "session_id": public_id,
            "offers": [
                {"agent": {"id": str(offer.agent_id), "name": offer.agent.name}, "expires_at": iso_z(offer.expires_at)}
                for offer in made
            ],
            "expires_at": iso_z(made[0].expires_at),
            "offer_seconds": round((made[0].expires_at - made[0].created_at).total_seconds()),
        }
