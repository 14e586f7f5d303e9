"""Agent API: send the session to payment, or take it back to the cart."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from apps.accounts.api.base import AgentAPIView, AgentRequest
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
    @extend_schema(
        request=None,
        responses={200: inline_serializer("SendToPaymentOut", {"session": SessionBrief(), "payment": PaymentOut()})},
        summary="Send the cart to payment: the kiosk receives the client secret (PaymentRequested)",
    )
    def post(self, request: AgentRequest, public_id: str) -> Response:
        session, payment = payments.payment_request(public_id=public_id, agent=request.user)
        return Response({"session": SessionBrief(session).data, "payment": PaymentOut(payment).data})


class CancelPaymentView(AgentAPIView):
    @extend_schema(
        request=None,
        responses={200: inline_serializer("CancelPaymentOut", {"session": SessionBrief()})},
        summary="Cancel the payment and return to the cart",
    )
    def post(self, request: AgentRequest, public_id: str) -> Response:
        session = payments.payment_cancel(public_id=public_id, agent=request.user)
        return Response({"session": SessionBrief(session).data})
