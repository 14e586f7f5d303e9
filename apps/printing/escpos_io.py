"""The one module that speaks to python-escpos: it builds a ticket's bytes (its `Dummy` printer)
and talks to a network printer over raw TCP (its `Network` printer): the status queries before
and after a ticket (DLE EOT, through `is_online`, `paper_status` and `query_status`) and the
bytes themselves. The service decides what to print and when (services.py); nothing else here.

python-escpos is imported on first use: it reads its printer profiles (about 0.2 s) when
imported, which only a process that prints needs to pay."""

import contextlib
import logging
import os
import re
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

Style = Literal["title", "big", "bold", "text", "center", "rule", "qr", "feed", "cut"]


@dataclass(frozen=True)
class Block:
    """One piece of a ticket: a line in a style, a rule across the paper, a QR code, the cut."""

    style: Style
    text: str = ""


def columns(paper_width_mm: int) -> int:
    """Characters of font A on a line: 48 on 80 mm paper, 32 on 58 mm."""
    return 32 if paper_width_mm <= 58 else 48


def render(blocks: Sequence[Block], *, paper_width_mm: int) -> bytes:
    """The ESC/POS bytes of `blocks`, from ESC @ (initialise) to the cut. Text outside ASCII is
    sent in a code page the printer has (the library's MagicEncode picks it, ESC t n)."""
    from escpos.printer import Dummy

    printer = Dummy()
    printer.hw("INIT")
    width = columns(paper_width_mm)
    for block in blocks:
        _block(printer, block, width)
    return bytes(printer.output)


def _block(printer: Any, block: Block, width: int) -> None:
    if block.style == "cut":
        printer.cut()
        return
    if block.style == "feed":
        printer.ln()
        return
    if block.style == "qr":
        printer.set(align="center")  # native codes are centred by the alignment, not by qr()
        printer.qr(block.text, native=True, size=6)
        return
    if block.style == "rule":
        printer.set_with_default()
        printer.textln("-" * width)
        return
    if block.style == "title":  # the order number: as large as the printer goes
        printer.set(align="center", bold=True, custom_size=True, width=4, height=4)
    elif block.style == "big":
        printer.set(align="left", bold=True, double_height=True, double_width=True)
    elif block.style == "bold":
        printer.set(align="left", bold=True, normal_textsize=True)
    elif block.style == "center":
        printer.set(align="center", normal_textsize=True, bold=False)
    else:
        printer.set(align="left", normal_textsize=True, bold=False)
    printer.textln(block.text)


# DLE EOT 2: the "off line cause" status; bit 2 (0x04) is the cover. python-escpos names DLE EOT
# (RT_STATUS) and asks 1 and 4 itself; 2 goes through its query_status.
_COVER_QUERY = b"\x10\x04\x02"
_COVER_OPEN = 0x04

Status = Literal["online", "offline", "paper_out", "cover_open"]


class PrinterGone(Exception):
    """The printer could not be reached, or dropped the connection."""


class Connection:
    """One TCP connection to a printer, for one ticket: status, bytes, status."""

    def __init__(self, host: str, port: int, timeout: float) -> None:
        from escpos.exceptions import DeviceNotFoundError
        from escpos.printer import Network

        self._printer = Network(host=host, port=port, timeout=timeout)
        try:
            self._printer.open()
            # A status query (3 bytes) right after a ticket would wait for the ticket's ACK
            # (Nagle's algorithm against the printer's delayed ACK): about 40 ms per query.
            self._printer.device.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except (DeviceNotFoundError, OSError) as error:
            raise PrinterGone(str(error)) from error

    def status(self) -> Status:
        """Asked in the printer's words: on line (DLE EOT 1), paper (DLE EOT 4), cover (DLE EOT 2).
        A printer that answers nothing (the connection closed) is offline."""
        try:
            if self._printer.is_online():
                return "online"
            cover = self._printer.query_status(_COVER_QUERY)
            if cover and cover[0] & _COVER_OPEN:
                return "cover_open"
            if self._printer.paper_status() == 0:
                return "paper_out"
            return "offline"
        except OSError as error:
            raise PrinterGone(str(error)) from error

    def send(self, data: bytes) -> None:
        try:
            self._printer._raw(data)  # the library's one way to send bytes as they are
        except OSError as error:
            raise PrinterGone(str(error)) from error

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._printer.close()

    def __enter__(self) -> "Connection":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def connect(host: str, port: int, timeout: float) -> Connection:
    return Connection(host, port, timeout)


class QuietConnections(logging.Filter):
    """LOGGING's filter on the root logger. python-escpos says "Network printer enabled" and
    "Closing Network connection to printer …" for every ticket at INFO with `logging.info`, on
    the root logger (its printer modules have no logger of their own, so no logger level can
    quiet them); its records there below WARNING are dropped, its warnings and errors kept."""

    def filter(self, record: logging.LogRecord) -> bool:
        from_escpos = record.name == "root" and f"{os.sep}escpos{os.sep}" in record.pathname
        return record.levelno >= logging.WARNING or not from_escpos


# Reading tickets back: the demo printer (apps/demo/demo_printer.py) and the tests' fake printer
# show what a ticket says. Only the commands render() sends are known.

DLE_EOT = b"\x10\x04"  # a real-time status query: DLE EOT n
_CUT = re.compile(rb"\x1dV[\x00\x01\x30\x31]")


def whole_tickets(stream: bytes) -> list[str]:
    """The tickets of a connection's bytes that reached their cut, decoded, the cut as "<cut>"."""
    return [decode(piece) + "<cut>" for piece in _CUT.split(stream)[:-1]]


def _codepages() -> dict[int, str]:
    """The library's code page numbers (ESC t n) by Python codec name."""
    from escpos.printer import Dummy

    names = Dummy().profile.profile_data["codePages"]
    return {int(n): name.lower().replace("iso_8859-", "iso8859_") for n, name in names.items()}


# ESC and GS commands python-escpos sends, by their letter: how many parameter bytes follow.
_ESC = {0x40: 0, 0x21: 1, 0x45: 1, 0x61: 1, 0x74: 1, 0x7B: 1, 0x2D: 1, 0x4D: 1, 0x64: 1, 0x47: 1}
_GS = {0x21: 1, 0x62: 1, 0x42: 1, 0x56: 1}


def decode(data: bytes) -> str:
    """The words of ESC/POS bytes, in the code pages they switch to (ESC t n)."""
    pages = _codepages()
    page = "cp437"
    out: list[str] = []
    i = 0
    while i < len(data):
        byte = data[i]
        if byte == 0x1B:
            command = data[i + 1]
            if command == 0x74:
                page = pages.get(data[i + 2], "cp437")
            if command not in _ESC:
                raise ValueError(f"unknown ESC {command:#x} at {i}")
            i += 2 + _ESC[command]
        elif byte == 0x1D and data[i + 1] == 0x28 and data[i + 2] == 0x6B:  # GS ( k: a QR code's parts
            size = data[i + 3] + 256 * data[i + 4]
            body = data[i + 5 : i + 5 + size]
            if body.startswith(b"1P0"):
                out.append(f"<qr {body[3:].decode()}>\n")
            i += 5 + size
        elif byte == 0x1D:
            command = data[i + 1]
            if command not in _GS:
                raise ValueError(f"unknown GS {command:#x} at {i}")
            i += 2 + _GS[command]
        else:
            end = i
            while end < len(data) and data[end] not in (0x1B, 0x1D):
                end += 1
            out.append(data[i:end].decode(page, errors="replace"))
            i = end
    return "".join(out)
