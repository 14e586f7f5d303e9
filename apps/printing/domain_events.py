"""What happens to a printer (apps.core.events): it stopped printing (offline, out of paper, its
cover open) or printed again. Each crossing is told once, with a webhook."""

from datetime import datetime
from typing import TypedDict

from apps.core.events import Event, OwnerOf
from apps.core.timefmt import iso_z
from apps.printing.models import Printer


class _PrinterPayload(TypedDict):
    printer_id: int
    printer_name: str
    business_id: int


class PrinterOfflinePayload(_PrinterPayload):
    state: str
    waiting_tickets: int
    offline_at: str


class PrinterOnlinePayload(_PrinterPayload):
    online_at: str


class _PrinterEvent(Event):
    printer: Printer
    at: datetime

    owner_id = OwnerOf("printer.business.owner_id")

    def _printer_payload(self) -> _PrinterPayload:
        printer = self.printer
        return {"printer_id": printer.pk, "printer_name": printer.name, "business_id": printer.business_id}


class PrinterWentOffline(_PrinterEvent):
    """It could not print: unreachable or off line (`offline`), `paper_out` or `cover_open`."""

    state: str = ""
    waiting_tickets: int = 0
    webhook_name = "printer.offline"

    def webhook_payload(self) -> PrinterOfflinePayload:
        return {
            **self._printer_payload(),
            "state": self.state,
            "waiting_tickets": self.waiting_tickets,
            "offline_at": iso_z(self.at),
        }


class PrinterCameOnline(_PrinterEvent):
    """A printer that could not print printed again."""

    webhook_name = "printer.online"

    def webhook_payload(self) -> PrinterOnlinePayload:
        return {**self._printer_payload(), "online_at": iso_z(self.at)}
