"""The demo kiosks' simulated card readers, on the demo processor only: one per kiosk, registered
with a simulated code through the service the panel and the owner API use, and kept across runs
while the demo processor still knows it (so its page stays where it was)."""

import logging
from typing import TypedDict

from django.conf import settings
from django.db import transaction
from django.urls import reverse

from apps.billing.models import CardReader
from apps.billing.services import readers
from apps.core.errors import DomainError
from apps.core.models import DomainEvent
from apps.demo import kiosk_app_code
from apps.demo_processor import mode as processor_mode
from apps.demo_processor import selectors as demo_processor_selectors
from apps.kiosks.domain_events import KioskPaired
from apps.kiosks.models import Kiosk

logger = logging.getLogger(__name__)

REGISTRATION_CODE = "simulated-wpe"


class DemoReaderEntry(TypedDict):
    id: str
    label: str
    page_url: str  # the demo processor's page of the reader: open it beside the kiosk


def seed_reader(*, kiosk_id: int, base_url: str) -> DemoReaderEntry | None:
    """The kiosk's reader (registered when it has none the demo processor knows); None when
    payments go to a real processor (a real reader is registered by its owner)."""
    if not processor_mode.active():
        return None
    kiosk = Kiosk.objects.select_related("business").get(pk=kiosk_id)
    reader = CardReader.objects.filter(kiosk=kiosk).first()
    if reader is None or not demo_processor_selectors.demo_reader_exists(reader.reader_id):
        label = f"{kiosk.name} reader"[:100]
        reader = readers.reader_register(kiosk=kiosk, registration_code=REGISTRATION_CODE, label=label)
    page = reverse("demo_processor:reader_page", args=[reader.reader_id])
    return {"id": reader.reader_id, "label": reader.label, "page_url": f"{base_url.rstrip('/')}{page}"}


def reader_for_newcomers_kiosk(event: KioskPaired, recorded: DomainEvent | None = None) -> None:
    """The kiosk a newcomer pairs with the code `/` prints (seed_demo's, or a renewed one) gets a
    simulated reader too, so the demo pays on a reader from the first order. After commit: the
    registration calls the (demo) processor, with no transaction open. A refusal leaves the kiosk
    paying with its card fields (logged): pairing never fails for it."""
    if settings.PRODUCTION or not processor_mode.active():
        return
    kiosk = event.kiosk
    if not kiosk_app_code.is_newcomers_kiosk(kiosk):
        return

    def register() -> None:
        try:
            seed_reader(kiosk_id=kiosk.pk, base_url="")
        except DomainError as exc:
            logger.warning("the demo kiosk %s got no simulated reader: %s", kiosk.pk, exc.code)

    transaction.on_commit(register)
