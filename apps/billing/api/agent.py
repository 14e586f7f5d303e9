"""Agent API: send the session to payment, or take it back to the cart."""

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

from apps.accounts.api.base import AgentAPIView, AgentRequest
from apps.api.operations import Answer, operation
from apps.billing.models import Payment
from apps.billing.services import payments
from apps.sessions.models import Session


class PaymentOut(serializers.Serializer[Payment]):
    status = serializers.CharField()
    amount_cents = serializers.IntegerField()
    currency = serializers.CharField()


class SessionBrief(serializers.Serializer[Session]):
    id = serializers.CharField(source="public_id")
    status = serializers.CharField()


class SendToPaymentView(AgentAPIView):
    @operation(Answer(inline_serializer("SendToPaymentOut", {"session": SessionBrief(), "payment": PaymentOut()})))
    def post(self, request: AgentRequest, public_id: str) -> dict[str, object]:
        """Send the cart to payment: the kiosk receives the client secret (PaymentRequested)"""
        session, payment = payments.payment_request(public_id=public_id, agent=request.user)
        return {"session": session, "payment": payment}


class CancelPaymentView(AgentAPIView):
    @operation(Answer(inline_serializer("CancelPaymentOut", {"session": SessionBrief()})))
    def post(self, request: AgentRequest, public_id: str) -> dict[str, Session]:
        """Cancel the payment and return to the cart"""
        return {"session": payments.payment_cancel(public_id=public_id, agent=request.user)}
