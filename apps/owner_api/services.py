"""Owner API keys: created (the client secret is returned once, DOT stores it hashed) and
revoked (its access tokens die at once and no new ones are issued).

The owner panel calls these two functions; keep their signatures.
"""

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone
from oauth2_provider.generators import generate_client_secret
from oauth2_provider.models import AccessToken, Application, RefreshToken

from apps.accounts.models import Owner, User
from apps.core.errors import DomainError, ErrorCode
from apps.owner_api.models import OwnerApiKey
from apps.owner_api.scopes import ALL_SCOPES


def _invalid(field: str, message: str) -> DomainError:
    return DomainError(ErrorCode.VALIDATION_ERROR, "The API key is invalid.", details={field: [message]})


def _clean_scopes(scopes: Iterable[str]) -> list[str]:
    chosen = list(dict.fromkeys(scopes))  # keep the caller's order, drop repeats
    unknown = [scope for scope in chosen if scope not in ALL_SCOPES]
    if unknown:
        raise _invalid("scopes", f"Unknown scopes: {', '.join(unknown)}. Choose from: {', '.join(ALL_SCOPES)}.")
    if not chosen:
        raise _invalid("scopes", "Choose at least one scope.")
    return chosen


def owner_api_key_create(
    *, owner: Owner, name: str, scopes: Iterable[str], created_by: User | None
) -> tuple[OwnerApiKey, str]:
    """A new key for `owner`: an OAuth client for the client-credentials grant. Returns the key
    (its `client_id` is public) and the client secret, which exists in plaintext only here."""
    name = (name or "").strip()
    if not name:
        raise _invalid("name", "Give the key a name.")
    if len(name) > 200:
        raise _invalid("name", "Use 200 characters at most.")
    chosen = _clean_scopes(scopes)
    if created_by is not None and created_by.owner_id not in (None, owner.pk):
        raise DomainError(ErrorCode.FORBIDDEN, "Only the owner's own users can create its API keys.")
    client_secret = generate_client_secret()
    with transaction.atomic():
        application = Application.objects.create(
            name=f"owner {owner.pk}: {name}"[:255],
            client_type=Application.CLIENT_CONFIDENTIAL,
            authorization_grant_type=Application.GRANT_CLIENT_CREDENTIALS,
            client_secret=client_secret,  # hashed by DOT on save (hash_client_secret=True)
            hash_client_secret=True,
            user=None,
        )
        key = OwnerApiKey.objects.create(
            owner=owner, application=application, name=name, scopes=" ".join(chosen), created_by=created_by
        )
    return key, client_secret


def owner_api_key_revoke(*, key: OwnerApiKey, revoked_by: User | None = None) -> OwnerApiKey:
    """Revoke a key for good: its live access tokens are deleted (the next call with one is a
    401) and the token endpoint refuses its credentials. Revoking twice changes nothing."""
    if revoked_by is not None and revoked_by.owner_id not in (None, key.owner_id):
        raise DomainError(ErrorCode.NOT_FOUND, "No such API key.")
    with transaction.atomic():
        locked = OwnerApiKey.objects.select_for_update().get(pk=key.pk)
        if locked.revoked_at is None:
            locked.revoked_at = timezone.now()
            locked.save(update_fields=["revoked_at"])
        RefreshToken.objects.filter(application_id=locked.application_id).delete()
        AccessToken.objects.filter(application_id=locked.application_id).delete()
    key.revoked_at = locked.revoked_at
    return key
