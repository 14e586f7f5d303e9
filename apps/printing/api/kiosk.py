"""Kiosk API: GET and POST /sessions/{id}/receipt/print, "Print receipt" on the thank-you screen
(whether the kiosk has a receipt printer, and the paid order's receipt on it)."""

from django.db import transaction
from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

from apps.api.operations import Answer, operation
from apps.kiosks.api.base import KioskAPIView, KioskRequest
from apps.kiosks.models import Kiosk
from apps.orders import receipts
from apps.orders.models import Order
from apps.printing import selectors, services
from apps.printing.models import JobStatus
from apps.sessions import selectors as session_selectors

ReceiptPrintOut = inline_serializer(
    "ReceiptPrintOut",
    {
        "printer": serializers.BooleanField(help_text="Whether this kiosk has a receipt printer (offer the button)."),
        "always": serializers.BooleanField(
            help_text="The owner prints every receipt: the kiosk asks for it itself when the thank-you opens."
        ),
        "status": serializers.ChoiceField(
            choices=JobStatus.values,
            allow_null=True,
            help_text="The order's printed receipt so far: null before it is asked (or printed by itself), "
            "waiting while its printer cannot print, printing, printed.",
        ),
    },
)


def _body(kiosk: Kiosk, order_id: int | None) -> dict[str, object]:
    printer, status = selectors.kiosk_receipt_state(kiosk_id=kiosk.pk, order_id=order_id)
    always = printer and selectors.prints_receipts_always(kiosk.business_id)
    return {"printer": printer, "always": always, "status": status}


RECEIPT_PRINT = Answer(ReceiptPrintOut)


class SessionReceiptPrintView(KioskAPIView):
    @operation(RECEIPT_PRINT)
    def get(self, request: KioskRequest, public_id: str) -> dict[str, object]:
        """Whether the thank-you screen offers "Print receipt", and the printed receipt so far

        404 SESSION_NOT_FOUND for another kiosk's session."""
        session = session_selectors.session_for_kiosk(kiosk=request.auth, public_id=public_id)
        order_id = Order.objects.filter(session=session).values_list("pk", flat=True).first()
        return _body(request.auth, order_id)

    @operation(RECEIPT_PRINT.with_status(202))
    def post(self, request: KioskRequest, public_id: str) -> dict[str, object]:
        """Print receipt: the paid order's receipt on this kiosk's receipt printer

        Answered 202 once the ticket is queued: it prints in the customer's language, with what the
        receipt page shows and a QR code to it, once however often it is asked (asked again, the
        same ticket's status is answered). A printer that cannot print keeps it waiting and prints
        it when it is back. 409 INVALID_STATE while the order is not paid, or when the kiosk has no
        receipt printer; 404 SESSION_NOT_FOUND for another kiosk's session."""
        session = session_selectors.session_for_kiosk(kiosk=request.auth, public_id=public_id)
        order = Order.objects.filter(session=session).first()
        path = receipts.receipt_path(order) if order is not None else None
        url = request.build_absolute_uri(path) if path else ""
        with transaction.atomic():
            job = services.kiosk_receipt_print(kiosk=request.auth, session_public_id=public_id, receipt_url=url)
        return _body(request.auth, job.order_id)
