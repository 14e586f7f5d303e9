"""Reads shared by several views of the accounts app."""

from django.utils.crypto import constant_time_compare

from apps.accounts.models import PersonalAccessToken, hash_token_secret


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
