"""Reads for the owner API, every one limited to the API key's owner: another owner's object
is simply not found (404), so ids do not reveal which tenants exist."""

from django.db.models import QuerySet

from apps.accounts.models import Business
from apps.core.errors import DomainError, ErrorCode
from apps.kiosks.models import Kiosk
from apps.menu.models import MenuItem
from apps.owner_api.models import OwnerApiKey


def api_key_for_application(application_id: int) -> OwnerApiKey | None:
    """The live key behind an OAuth client, or None (revoked, or not an owner API key)."""
    return (
        OwnerApiKey.objects.select_related("owner", "application")
        .filter(application_id=application_id, revoked_at=None)
        .first()
    )


def paired_kiosks(*, owner_id: int) -> QuerySet[Kiosk]:
    return (
        Kiosk.objects.select_related("business")
        .filter(business__owner_id=owner_id, unpaired_at=None)
        .order_by("business__name", "name", "pk")
    )


def paired_kiosk(*, owner_id: int, kiosk_id: int) -> Kiosk:
    kiosk = paired_kiosks(owner_id=owner_id).filter(pk=kiosk_id).first()
    if kiosk is None:
        raise DomainError(ErrorCode.NOT_FOUND, "No such kiosk.")
    return kiosk


def business_for_pairing(*, owner_id: int, business_id: int | None) -> Business:
    """The business a new kiosk joins: the one named, or the owner's only business."""
    businesses = Business.objects.filter(owner_id=owner_id)
    if business_id is not None:
        business = businesses.filter(pk=business_id).first()
        if business is None:
            raise DomainError(ErrorCode.NOT_FOUND, "No such business.")
        return business
    first_two = list(businesses.order_by("pk")[:2])
    if len(first_two) != 1:
        raise DomainError(
            ErrorCode.VALIDATION_ERROR,
            "Name the business the kiosk will join.",
            details={"business_id": ["Required: this owner has several businesses (or none)."]},
        )
    return first_two[0]


def menu_item(*, owner_id: int, item_id: int) -> MenuItem:
    item = MenuItem.objects.filter(pk=item_id, category__catalog__business__owner_id=owner_id).first()
    if item is None:
        raise DomainError(ErrorCode.NOT_FOUND, "No such menu item.")
    return item


def api_keys_of_owner(owner_id: int) -> QuerySet[OwnerApiKey]:
    return OwnerApiKey.objects.filter(owner_id=owner_id)


def owned_business(*, owner_id: int, business_id: int) -> Business:
    business = Business.objects.filter(owner_id=owner_id, pk=business_id).first()
    if business is None:
        raise DomainError(ErrorCode.NOT_FOUND, "No such business.")
    return business
