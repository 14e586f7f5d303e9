"""The demo kiosks' simulated card readers, on the demo processor only: one per kiosk, registered
with a simulated code through the service the panel and the owner API use, and kept across runs
while the demo processor still knows it (so its page stays where it was)."""

from typing import TypedDict

from django.urls import reverse

from apps.billing.models import CardReader
from apps.billing.services import readers
from apps.demo_processor import mode as processor_mode
from apps.demo_processor import selectors as demo_processor_selectors
from apps.kiosks.models import Kiosk

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
