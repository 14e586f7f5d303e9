"""The receipt page, /r/<token>: no sign-in (whoever holds the unguessable address sees the one
receipt), under the strict Content-Security-Policy (CSP_PATHS), never cached by a shared cache."""

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
