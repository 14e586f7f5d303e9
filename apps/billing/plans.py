"""Plan tiers of the service and what an agent minute costs on each."""

from apps.billing.models import OwnerBilling, Plan

RATE_CENTS_PER_MINUTE = {Plan.FREE: 60, Plan.PRO: 35}


def rate_for_owner(owner_id: int) -> int:
    plan = OwnerBilling.objects.filter(owner_id=owner_id).values_list("plan", flat=True).first() or Plan.FREE
    return RATE_CENTS_PER_MINUTE[plan]
