"""The one check every surface makes for a suspended owner (docs/decisions/panel.md, "Suspension").

A suspended owner's kiosks start no new sessions and pair no new devices, its agents' access
tokens and its owner-API keys are refused, all with 403 OWNER_SUSPENDED. What already runs
(a customer being served, a payment in progress, the owner panel) goes on.
"""

from django.utils.translation import gettext_noop

from apps.accounts.models import Owner
from apps.core.errors import DomainError, ErrorCode

SUSPENDED_MESSAGE = gettext_noop(  # a msgid: the panel translates refusals
    "This account is suspended by the service. Contact support to restore it."
)


def owner_is_suspended(owner_id: int | None) -> bool:
    """Read fresh from the database on purpose: a suspension (or its end) counts at once."""
    if owner_id is None:  # platform agents belong to no owner
        return False
    return Owner.objects.filter(pk=owner_id, suspended=True).exists()


def ensure_owner_not_suspended(owner_id: int | None) -> None:
    if owner_is_suspended(owner_id):
        raise DomainError(ErrorCode.OWNER_SUSPENDED, SUSPENDED_MESSAGE)
