"""The receipt page, /r/<token>: no sign-in (whoever holds the unguessable address sees the one
receipt), under the strict Content-Security-Policy (CSP_PATHS), never cached by a shared cache.
/r/<token>/qr.svg is the QR code of that address, which the kiosk's thank-you screen shows (made
here with the `qrcode` library the panel's two-factor page already uses: no browser library)."""

from io import BytesIO

import qrcode
import qrcode.image.svg
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from apps.orders import receipts


def receipt_page(request: HttpRequest, token: str) -> HttpResponse:
    order = receipts.order_for_receipt(token)
    if order is None:
        raise Http404("No receipt at this address.")
    response = render(request, "receipts/receipt.html", receipts.receipt_context(order))
    response["Cache-Control"] = "private, no-cache"
    response["Referrer-Policy"] = "no-referrer"  # the address is the key: it must not leak in a Referer
    return response


def qr_svg(url: str) -> bytes:
    """The QR code of `url` as an SVG image (one path; the same bytes for the same address)."""
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    buffer = BytesIO()
    image.save(buffer)
    return buffer.getvalue()


def receipt_qr(request: HttpRequest, token: str) -> HttpResponse:
    order = receipts.order_for_receipt(token)
    if order is None:
        raise Http404("No receipt at this address.")
    response = HttpResponse(qr_svg(request.build_absolute_uri(f"/r/{token}")), content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=3600"
    response["Referrer-Policy"] = "no-referrer"
    return response
