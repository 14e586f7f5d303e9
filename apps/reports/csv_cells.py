"""Cells of every CSV the service writes, neutralised against formula injection (OWASP's "CSV
Injection"): a text cell starting with = + - @, a tab or a carriage return is taken for a formula
by spreadsheets (a kiosk renamed `=HYPERLINK(...)` became a link in the owner's sheet), so it is
written with a leading single quote, which spreadsheets show as text and hide. A plain number
("-12.5", a negative figure) stays a number: it computes nothing. One rule, two writers: `cell` for csv.writer rows
(apps/panel/views/reports.py), `cell_sql` for the columns PostgreSQL's COPY writes
(apps/reports/session_copy.py), so both paths still print the same bytes."""

import re
from collections.abc import Iterable

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
NUMBER = r"[-+]?[0-9]+(\.[0-9]+)?"  # the same pattern in Python and PostgreSQL, whole cells
_number = re.compile(NUMBER)


def cell(value: object) -> object:
    """`value` as a CSV cell: text that a spreadsheet would read as a formula gets a leading '."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _number.fullmatch(value):
        return "'" + value
    return value


def cell_sql(expression: str) -> str:
    """The SQL (PostgreSQL) of `cell` for a text expression: the same starts, the same quote."""
    starts = ", ".join(f"chr({ord(start)})" for start in FORMULA_STARTS)
    formula = f"left({expression}, 1) IN ({starts}) AND {expression} !~ '^{NUMBER}$'"
    return f"CASE WHEN {formula} THEN chr(39) || {expression} ELSE {expression} END"


def row(values: Iterable[object]) -> list[object]:
    return [cell(value) for value in values]
