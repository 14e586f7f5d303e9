from datetime import datetime
from typing import overload


@overload
def iso_z(value: datetime) -> str: ...
@overload
def iso_z(value: None) -> None: ...
@overload
def iso_z(value: datetime | None) -> str | None: ...


def iso_z(value: datetime | None) -> str | None:
    """ISO 8601 in UTC with a `Z`, as every body and payload carries time (DESIGN.md 3)."""
    if value is None:
        return None
    return value.isoformat().replace("+00:00", "Z")
