from datetime import datetime


def iso_z(value: datetime | None) -> str | None:
    """ISO 8601 in UTC with a `Z`, as every body and payload carries time (DESIGN.md 3)."""
    if value is None:
        return None
    return value.isoformat().replace("+00:00", "Z")
