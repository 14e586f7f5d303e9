"""The hourly sweep deletes owner API access tokens that have expired, and keeps live ones."""

from datetime import timedelta

import time_machine
from django.utils import timezone
from oauth2_provider.models import AccessToken

from apps.owner_api.tasks import purge_expired_tokens
from tests.owner_api.conftest import token_for


def test_expired_tokens_are_purged_live_ones_kept(make_key):
    key, secret = make_key()
    with time_machine.travel(timezone.now() - timedelta(hours=3)):
        token_for(key, secret)  # expired two hours ago
    token_for(key, secret)  # live for another hour
    assert AccessToken.objects.count() == 2
    purge_expired_tokens()
    [live] = AccessToken.objects.all()
    assert live.expires > timezone.now()
