"""Nothing in the cache is a pickled model: the kiosk's cached credentials row is plain data under a
key that carries the version of its shape, and the Redis cache stores JSON, so a deploy that changes
a model cannot break the reads of entries written before it."""

import json
import pickle

import pytest
from django.core.cache import cache, caches
from django.utils import timezone

from apps.core.cache import FailOpenRedisCache
from apps.kiosks import selectors
from apps.kiosks.models import Kiosk

HEARTBEAT = "/api/public/kiosks/heartbeat"

needs_redis = pytest.mark.skipif(
    not isinstance(caches["default"], FailOpenRedisCache),
    reason="the Redis cache (REDIS_URL): the embedded default is memory",
)


def test_the_cached_credentials_row_is_plain_data_that_rebuilds_the_kiosk(kiosk):
    Kiosk.objects.filter(pk=kiosk.pk).update(last_seen_at=timezone.now(), online=True)
    fresh = Kiosk.objects.select_related("business").get(pk=kiosk.pk)
    assert selectors.kiosk_for_device_credentials(device_id=kiosk.device_id, token_hash=fresh.token_hash)  # caches
    row = cache.get(selectors.credentials_cache_key(kiosk.device_id))
    assert json.loads(json.dumps(row)) == row  # plain JSON data, no model
    found = selectors.kiosk_for_device_credentials(device_id=kiosk.device_id, token_hash=fresh.token_hash)
    assert found is not None
    rebuilt = found.kiosk  # from the cached row
    for field in Kiosk._meta.concrete_fields:
        assert getattr(rebuilt, field.attname) == getattr(fresh, field.attname), field.attname
    assert rebuilt.business == fresh.business and rebuilt.business.name == fresh.business.name
    assert rebuilt.last_seen_at.tzinfo is not None and rebuilt.last_seen_at <= timezone.now()
    assert not rebuilt._state.adding  # as if loaded: a save() updates the row


def test_the_credentials_key_carries_the_shape_version_which_follows_the_models_fields(monkeypatch, kiosk):
    key = selectors.credentials_cache_key(kiosk.device_id)
    assert selectors.CREDENTIALS_SHAPE_VERSION in key
    before = selectors._shape_version()
    field = Kiosk._meta.get_field("location")
    monkeypatch.setattr(field, "attname", "place")  # as a deploy renaming a field would
    assert selectors._shape_version() != before


@needs_redis
def test_redis_holds_json_and_refuses_to_store_a_model(kiosk):
    cache.set("plain-check", {"a": [1, "b", None]}, 30)
    assert caches["default"].client.get(cache.make_key("plain-check")) == b'{"a":[1,"b",null]}'
    assert cache.get("plain-check") == {"a": [1, "b", None]}
    with pytest.raises(TypeError):
        cache.set("plain-check", kiosk, 30)


@needs_redis
def test_an_entry_written_pickled_by_an_older_release_is_a_miss(kiosk, kiosk_client):
    key = selectors.credentials_cache_key(kiosk.device_id)
    caches["default"].client.set(cache.make_key(key), pickle.dumps({"old": "shape"}), ex=30)
    assert cache.get(key, "missed") == "missed"
    assert cache.get_many([key]) == {}
    assert kiosk_client.post(HEARTBEAT).status_code == 200  # reads the database, caches anew
    assert "kiosk" in cache.get(key)
