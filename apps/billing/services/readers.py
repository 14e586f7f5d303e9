"""A kiosk's card reader: registered on the owner's connected account at the business's location
(one per business, made on first use), replaced or removed by the owner; its status and last
action recorded as the processor reports them. Processor calls run with no transaction open."""

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apps.billing import selectors as billing_selectors
from apps.billing import terminal
from apps.billing.domain_events import ReaderActionChanged
from apps.billing.models import CardReader, Payment, ReaderLocation
from apps.core import events
from apps.core.errors import DomainError, ErrorCode
from apps.kiosks.models import Kiosk
from apps.sessions import status_cache


def _location_of(kiosk: Kiosk, account_id: str) -> str:
    """The business's location on the account, created once: concurrent first registrations send
    the same idempotency key and get the same location."""
    business = kiosk.business
    found = ReaderLocation.objects.filter(business=business, account_id=account_id).first()
    if found is not None:
        return found.location_id
    first_line = next((line.strip() for line in business.address.splitlines() if line.strip()), "")
    address = {"country": settings.CARD_READER_LOCATION_COUNTRY}
    if first_line:
        address["line1"] = first_line[:200]
    location_id = terminal.location_create(
        account_id=account_id,
        display_name=business.name,
        address=address,
        idempotency_key=f"location-{business.pk}-{account_id}",
    )
    location, _ = ReaderLocation.objects.get_or_create(
        location_id=location_id, defaults={"business": business, "account_id": account_id}
    )
    return location.location_id


def record(reader: CardReader, state: terminal.ReaderState) -> None:
    """Store what the processor reported of the reader (inside the caller's transaction)."""
    reader.status = state["status"]
    action = state["action"]
    if action is not None:
        reader.action_type, reader.action_status = action["type"], action["status"]
        reader.action_intent_id = action["payment_intent"]
        reader.failure_code, reader.failure_message = action["failure_code"], action["failure_message"]
    elif reader.action_status == "in_progress":  # the action was cancelled: the reader is idle
        reader.action_status, reader.failure_code, reader.failure_message = "canceled", "", ""
    reader.reported_at = timezone.now()
    reader.save()
    if reader.action_intent_id:  # the kiosk's status body shows the reader: no stale copy served
        payment = Payment.objects.filter(intent_id=reader.action_intent_id).select_related("order__session").first()
        if payment is not None:
            status_cache.session_moved(payment.order.session.public_id)
            events.emit(ReaderActionChanged(payment.order.session))


def record_by_id(reader_id: str, state: terminal.ReaderState) -> CardReader | None:
    with transaction.atomic():
        reader = CardReader.objects.select_for_update().filter(reader_id=reader_id).first()
        if reader is not None:
            record(reader, state)
    return reader


def reader_register(*, kiosk: Kiosk, registration_code: str, label: str) -> CardReader:
    """Register a reader for the kiosk, replacing its current one (which is then unregistered)."""
    account_id = billing_selectors.charges_account(kiosk.business.owner_id)
    location_id = _location_of(kiosk, account_id)
    state = terminal.reader_create(
        account_id=account_id, location_id=location_id, registration_code=registration_code, label=label
    )
    with transaction.atomic():
        reader = CardReader.objects.select_for_update().filter(kiosk=kiosk).first()
        replaced = None if reader is None else (reader.account_id, reader.reader_id)
        if reader is None:
            reader = CardReader(kiosk=kiosk, owner_id=kiosk.business.owner_id)
        reader.account_id, reader.reader_id = account_id, state["id"]
        reader.label, reader.device_type = state["label"] or label, state["device_type"]
        reader.action_type = reader.action_status = reader.action_intent_id = ""
        reader.failure_code = reader.failure_message = ""
        reader.created_at = timezone.now()
        record(reader, state)
    if replaced is not None:
        terminal.reader_delete_quietly(account_id=replaced[0], reader_id=replaced[1])
    return reader


def reader_remove(*, kiosk: Kiosk) -> None:
    """The kiosk has no reader any more: it pays with the card fields again."""
    with transaction.atomic():
        reader = CardReader.objects.select_for_update().filter(kiosk=kiosk).first()
        if reader is None:
            raise DomainError(ErrorCode.NOT_FOUND, "This kiosk has no card reader.")
        account_id, reader_id = reader.account_id, reader.reader_id
        reader.delete()
    terminal.reader_delete_quietly(account_id=account_id, reader_id=reader_id)
