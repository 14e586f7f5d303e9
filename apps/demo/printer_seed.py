"""The demo burger business's printers at DEMO_PRINTER_ADDRESS (by default the demo printer that
`make run` serves, apps/demo/demo_printer.py): a kitchen printer for every line and a receipt
printer for its first kiosk, made through the service the panel and the owner API use and kept
across runs (moved when the address changed)."""

from typing import TypedDict

from django.conf import settings

from apps.accounts.models import Business
from apps.demo.demo_printer import split_address
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


def seed_printers(*, business: Business, kiosk: Kiosk) -> list[DemoPrinterEntry]:
    host, port = split_address(settings.DEMO_PRINTER_ADDRESS)
    common = {"host": host, "port": port, "reads_status": True}
    wanted = [
        {"name": KITCHEN, "role": PrinterRole.KITCHEN, "paper_width": PaperWidth.MM80, "category_ids": [], **common},
        {"name": RECEIPTS, "role": PrinterRole.RECEIPT, "paper_width": PaperWidth.MM58, "kiosk_id": kiosk.pk, **common},
    ]
    made = []
    for fields in wanted:
        printer = Printer.objects.filter(business=business, name=fields["name"]).first()
        if printer is None:
            printer = services.printer_create(business=business, fields=fields)
        else:
            printer = services.printer_update(printer=printer, fields=fields)
        made.append(
            DemoPrinterEntry(
                id=printer.pk,
                name=printer.name,
                role=printer.role,
                address=f"{printer.host}:{printer.port}",
                kiosk_id=printer.kiosk_id,
            )
        )
    return made
