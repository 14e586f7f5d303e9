"""Reads shared by several views of the accounts app."""

from django.db.models import Exists, OuterRef, QuerySet
from django.utils.crypto import constant_time_compare

from apps.accounts.models import (
    Business,
    LoginChallenge,
    PersonalAccessToken,
    User,
    hash_token_secret,
)
from apps.accounts.totp import SealedTotpDevice


def access_token_for_bearer(raw_token: str) -> PersonalAccessToken | None:
    """The live token for `{id}|{secret}`, or None if unknown, revoked, or its user disabled or no
    longer an agent (tokens are issued to agents only; a demoted user loses the token API as it
    loses the agent API)."""
    token_id, sep, secret = raw_token.partition("|")
    if not sep or not (token_id.isascii() and token_id.isdigit()) or len(token_id) > 18 or not secret:
        return None
    token = PersonalAccessToken.objects.select_related("user__owner").filter(pk=int(token_id), revoked_at=None).first()
    if token is None or not token.user.is_active or not token.user.is_agent:
        return None
    if not constant_time_compare(token.token_hash, hash_token_secret(secret)):
        return None
    return token


# What an owner's panel may see, written once per model (apps/panel reads through these).


def businesses_of_owner(owner_id: int) -> QuerySet[Business]:
    return Business.objects.filter(owner_id=owner_id).order_by("pk")


def agents_of_owner(owner_id: int) -> QuerySet[User]:
    """The owner's agents, each with `has_totp` (a confirmed authenticator)."""
    has_totp = Exists(SealedTotpDevice.objects.filter(user=OuterRef("pk"), confirmed=True))
    return User.objects.filter(owner_id=owner_id, is_agent=True).annotate(has_totp=has_totp)


def login_challenge_open(public_id: str) -> bool:
    """Whether a sign-in's second-factor challenge exists and is still unused."""
    return LoginChallenge.for_id(public_id).filter(used_at=None).exists()
