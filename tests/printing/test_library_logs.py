"""python-escpos's chatter stays out of the log: for every ticket it says "Network printer
enabled" and "Closing Network connection to printer …" at INFO with `logging.info`, on the root
logger. LOGGING's filter on the root logger (apps/printing/escpos_io.py QuietConnections) drops
those and keeps the library's warnings and everyone else's INFO."""

import logging

from apps.printing import escpos_io


def _record(level: int, pathname: str) -> logging.LogRecord:
    return logging.LogRecord("root", level, pathname, 1, "said at %s", (level,), None)


def test_a_printer_connection_says_nothing_at_info(caplog, fake_printers):
    caplog.set_level(logging.INFO)
    fake = fake_printers()
    with escpos_io.connect(fake.host, fake.port, 2) as connection:
        assert connection.status() == "online"

    assert [record.getMessage() for record in caplog.records if "escpos" in record.pathname] == []


def test_the_librarys_warnings_and_other_info_still_reach_the_log(caplog):
    caplog.set_level(logging.INFO)
    library = escpos_io.__file__.replace("apps/printing/escpos_io.py", "site-packages/escpos/printer/network.py")
    root = logging.getLogger()
    root.handle(_record(logging.WARNING, library))
    root.handle(_record(logging.INFO, library))
    root.handle(_record(logging.INFO, escpos_io.__file__))

    assert [(record.levelno, record.pathname) for record in caplog.records] == [
        (logging.WARNING, library),
        (logging.INFO, escpos_io.__file__),
    ]
