"""Owners connect their own processor account (Connect onboarding)."""

from django.db import transaction

from apps.accounts.models import Owner
from apps.billing import processor
from apps.billing.models import OwnerBilling


def onboarding_link(*, owner: Owner, refresh_url: str, return_url: str) -> str:
    """The processor's hosted onboarding URL for the owner's account (created on first use). No
    lock is held during the calls: the account's idempotency key is the owner's, so concurrent
    first uses get the same account from the processor and record the same id."""
    billing, _ = OwnerBilling.objects.get_or_create(owner=owner)
    if not billing.account_id:
        account = processor.call(
            processor.client().v1.accounts.create,
            params={"type": "standard", "metadata": {"owner_id": str(owner.pk)}},
            options={"idempotency_key": f"connect-account-{owner.pk}"},
        )
        with transaction.atomic():
            billing = OwnerBilling.objects.select_for_update().get(pk=billing.pk)
            if not billing.account_id:
                billing.account_id = account.id
                billing.save(update_fields=["account_id"])
    link = processor.call(
        processor.client().v1.account_links.create,
        params={
            "account": billing.account_id,
            "refresh_url": refresh_url,
            "return_url": return_url,
            "type": "account_onboarding",
        },
    )
    return link.url
