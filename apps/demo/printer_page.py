"""`/demo-printer/`: the tickets the demo printer received, newest first, as their words. It
reads the listener's memory in this process (apps/demo/demo_printer.py); it refreshes itself."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from apps.demo import demo_printer


@require_safe
def demo_printer_page(request: HttpRequest) -> HttpResponse:
    context = {
        "tickets": demo_printer.tickets.newest(),
        "address": settings.DEMO_PRINTER_ADDRESS,
        "served": settings.DEMO_PRINTER_SERVED,
    }
    return render(request, "demo/printer.html", context)
