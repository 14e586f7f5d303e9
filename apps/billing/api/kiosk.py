"""Kiosk API: the open payment of its session, for a kiosk that missed PaymentRequested."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from apps.api.views import KioskAPIView
from apps.billing import payments
from apps.sessions import selectors as session_selectors


class KioskPaymentOut(serializers.Serializer):
    status = serializers.CharField()
    amount_cents = serializers.IntegerField()
    currency = serializers.CharField()
    client_secret = serializers.CharField()
    processor_account = serializers.CharField(source="account_id")
    failure_message = serializers.CharField()


class SessionPaymentView(KioskAPIView):
    @extend_schema(responses={200: KioskPaymentOut}, summary="The session's open payment (client secret)")
    def get(self, request, public_id: str):
        session = session_selectors.session_for_kiosk(kiosk=request.auth, public_id=public_id)
        return Response(KioskPaymentOut(payments.payment_for_kiosk(session=session)).data)
