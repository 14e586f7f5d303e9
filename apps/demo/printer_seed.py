"""The demo burger business's printers at DEMO_PRINTER_ADDRESS (by default the demo printer that
`make run` serves, apps/demo/demo_printer.py): a kitchen printer for every line and a receipt
printer for its first kiosk, made through the service the panel and the owner API use and kept
across runs (moved when the address changed); and one for the kiosk a newcomer pairs with the
code `/` prints, so "Print receipt" works on the first demo order."""

from typing import TypedDict

from django.conf import settings

from apps.accounts.models import Business
from apps.core.models import DomainEvent
from apps.demo import kiosk_app_code
from apps.demo.demo_printer import split_address
from apps.kiosks.domain_events import KioskPaired
from apps.kiosks.models import Kiosk
from apps.printing import services
from apps.printing.models import PaperWidth, Printer, PrinterRole

KITCHEN, RECEIPTS = "Demo kitchen printer", "Demo receipt printer"


class DemoPrinterEntry(TypedDict):
    id: int
    name: str
    role: str
    address: str
    kiosk_id: int | None


def _at_the_demo_printer() -> dict[str, object]:
    host, port = split_address(settings.DEMO_PRINTER_ADDRESS)
    return {"host": host, "port": port, "reads_status": True}


def _receipts_of(kiosk: Kiosk, name: str) -> dict[str, object]:
    return {"name": name, "role": PrinterRole.RECEIPT, "paper_width": PaperWidth.MM58, "kiosk_id": kiosk.pk}


def seed_printers(*, business: Business, kiosk: Kiosk) -> list[DemoPrinterEntry]:
    common = _at_the_demo_printer()
    wanted = [
        {"name": KITCHEN, "role": PrinterRole.KITCHEN, "paper_width": PaperWidth.MM80, "category_ids": [], **common},
        {**_receipts_of(kiosk, RECEIPTS), **common},
    ]
    return [_entry(_kept(business, fields)) for fields in wanted]


def _kept(business: Business, fields: dict[str, object]) -> Printer:
    """The business's printer of that name, made or changed to `fields`."""
    printer = Printer.objects.filter(business=business, name=fields["name"]).first()
    if printer is None:
        return services.printer_create(business=business, fields=fields)
    return services.printer_update(printer=printer, fields=fields)


def _entry(printer: Printer) -> DemoPrinterEntry:
    return DemoPrinterEntry(
        id=printer.pk,
        name=printer.name,
        role=printer.role,
        address=f"{printer.host}:{printer.port}",
        kiosk_id=printer.kiosk_id,
    )


def receipts_for_newcomers_kiosk(event: KioskPaired, recorded: DomainEvent | None = None) -> None:
    """The kiosk a newcomer pairs with the code `/` prints gets a receipt printer of its own at the
    demo printer, when its business has the demo's printers (seed_demo made them)."""
    kiosk = event.kiosk
    if settings.PRODUCTION or not kiosk_app_code.is_newcomers_kiosk(kiosk):
        return
    if not Printer.objects.filter(business=kiosk.business, name=KITCHEN).exists():
        return
    name = f"{RECEIPTS} ({kiosk.name})"[:100]
    _kept(kiosk.business, {**_receipts_of(kiosk, name), **_at_the_demo_printer()})
