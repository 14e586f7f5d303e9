"""Kiosk API: the open payment of its session, for a kiosk that missed PaymentRequested."""

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.response import Response

from apps.api.views import KioskAPIView, KioskRequest
from apps.billing.models import Payment
from apps.billing.services import payments
from apps.demo_processor import mode as processor_mode
from apps.sessions import selectors as session_selectors


class KioskProcessorOut(serializers.Serializer[None]):
    """How the kiosk app pays: `live` with the processor's browser library and publishable key,
    or `demo`: POST {client_secret, card_number} to `confirm_url` (a path on this service)."""

    mode = serializers.ChoiceField(choices=["live", "demo"])
    publishable_key = serializers.CharField()
    confirm_url = serializers.CharField(allow_null=True)
    notice = serializers.CharField(allow_null=True, help_text='"Demo payments: no money moves." in demo mode.')


class KioskPaymentOut(serializers.Serializer[Payment]):
    status = serializers.CharField()
    amount_cents = serializers.IntegerField()
    currency = serializers.CharField()
    client_secret = serializers.CharField()
    processor_account = serializers.CharField(source="account_id")
    failure_message = serializers.CharField()
    processor = serializers.SerializerMethodField()

    @extend_schema_field(KioskProcessorOut)
    def get_processor(self, payment: Payment) -> processor_mode.KioskProcessor:
        return processor_mode.kiosk_processor(payment.intent_id)


class SessionPaymentView(KioskAPIView):
    @extend_schema(responses={200: KioskPaymentOut}, summary="The session's open payment (client secret)")
    def get(self, request: KioskRequest, public_id: str) -> Response:
        session = session_selectors.session_for_kiosk(kiosk=request.auth, public_id=public_id)
        return Response(KioskPaymentOut(payments.payment_for_kiosk(session=session)).data)
