"""Plan tiers of the service and what an agent minute costs on each."""

from django.db import transaction

from apps.accounts.models import Owner
from apps.billing.models import OwnerBilling, Plan

RATE_CENTS_PER_MINUTE: dict[str, int] = {Plan.FREE: 60, Plan.PRO: 35}


def rate_for_owner(owner_id: int) -> int:
    plan = OwnerBilling.objects.filter(owner_id=owner_id).values_list("plan", flat=True).first() or Plan.FREE
    return RATE_CENTS_PER_MINUTE[plan]


def plan_set(*, owner: Owner, plan: str) -> OwnerBilling:
    """Move an owner to `plan` (the super-admin's owner actions). Agent minutes are priced at the
    plan's rate from the next session on; nothing is cached."""
    if plan not in Plan.values:
        raise ValueError(f"unknown plan {plan!r}")
    with transaction.atomic():
        billing, _ = OwnerBilling.objects.select_for_update().get_or_create(owner=owner)
        if billing.plan != plan:
            billing.plan = plan
            billing.save(update_fields=["plan"])
    return billing
