"""The AccessToken2 ("007") builder on its own: the provider's published test vector, the byte
layout, and the refusals. The cross-check against the provider's Node library is in
test_video_token_peer.py."""

import base64
import hashlib
import hmac
import struct
import zlib

import pytest

from apps.video import tokens

# The provider's own test vector (agora-token test/AccessToken2Test.js, AccessToken_Test).
VECTOR_APP_ID = "970CA35de60c44645bbae8a215061b33"
VECTOR_CERTIFICATE = "5CFd2fd1755d40ecb72977518be15d3b"
VECTOR_CHANNEL = "7d72365eb983485397e3e3f9d460bdda"
VECTOR_TOKEN = (
    "007eJxTYBBbsMMnKq7p9Hf/HcIX5kce9b518kCiQgSr5Zrp4X1Tu6UUGCzNDZwdjU1TUs0Mkk1MzExMk5ISUy0SjQxNDcwMk4yN3b8IME"
    "QwMTAwMoAwBIL4CgzmKeZGxmamqUmWFsYmFqbGluapxqnGaZYpJmYGSSkpiVwMRhYWRsYmhkbmxgDCaiTj"
)
VECTOR_TOKEN_UID_0 = (
    "007eJxTYLhzZP08Lxa1Pg57+TcXb/3cZ3wi4V6kbpbOog0G2dOYk20UGCzNDZwdjU1TUs0Mkk1MzExMk5ISUy0SjQxNDcwMk4yN3b8IME"
    "QwMTAwMoAwBIL4CgzmKeZGxmamqUmWFsYmFqbGluapxqnGaZYpJmYGSSkpiQwMADacImo="
)


def vector_token(uid: int) -> str:
    return tokens.build_rtc_token(
        app_id=VECTOR_APP_ID,
        app_certificate=VECTOR_CERTIFICATE,
        channel=VECTOR_CHANNEL,
        uid=uid,
        privileges={tokens.PRIVILEGE_JOIN_CHANNEL: 600},
        issue_ts=1111111,
        expire=600,
        salt=1,
    )


@pytest.mark.parametrize(("uid", "expected"), [(2882341273, VECTOR_TOKEN), (0, VECTOR_TOKEN_UID_0)])
def test_builder_reproduces_the_providers_published_vector(uid, expected):
    built = vector_token(uid)
    assert tokens.token_content(built) == tokens.token_content(expected)
    assert built == expected  # the same zlib defaults happen to give the same base64 too


def test_layout_field_by_field():
    token = tokens.build_rtc_token(
        app_id="a" * 32,
        app_certificate="b" * 32,
        channel="ses_abc",
        uid=1_000_000_007,
        privileges={4: 3600, 1: 3600, 3: 3600, 2: 3600},  # packed in key order whatever the input order
        issue_ts=1_700_000_000,
        expire=3600,
        salt=42,
    )
    assert token.startswith("007")
    content = zlib.decompress(base64.b64decode(token[3:]))
    (sig_len,) = struct.unpack_from("<H", content)
    signature, info = content[2 : 2 + sig_len], content[2 + sig_len :]
    expected_info = (
        struct.pack("<H", 32)
        + b"a" * 32
        + struct.pack("<IIIH", 1_700_000_000, 3600, 42, 1)
        + struct.pack("<HH", 1, 4)
        + b"".join(struct.pack("<HI", key, 3600) for key in (1, 2, 3, 4))
        + struct.pack("<H", 7)
        + b"ses_abc"
        + struct.pack("<H", 10)
        + b"1000000007"
    )
    assert info == expected_info
    key = hmac.new(struct.pack("<I", 1_700_000_000), b"b" * 32, hashlib.sha256).digest()
    key = hmac.new(struct.pack("<I", 42), key, hashlib.sha256).digest()
    assert signature == hmac.new(key, expected_info, hashlib.sha256).digest()


def test_reader_round_trips_and_verifies_the_signature():
    token = vector_token(2882341273)
    contents = tokens.read_rtc_token(token)
    assert (contents.app_id, contents.issue_ts, contents.expire, contents.salt) == (VECTOR_APP_ID, 1111111, 600, 1)
    assert (contents.channel, contents.uid, contents.privileges) == (VECTOR_CHANNEL, 2882341273, {1: 600})
    assert tokens.verify_signature(token, VECTOR_CERTIFICATE)
    assert not tokens.verify_signature(token, "0" * 32)


@pytest.mark.parametrize(
    "bad",
    [
        {"app_id": "not-hex-" * 4},
        {"app_id": "a" * 31},
        {"app_certificate": "g" * 32},
        {"app_certificate": ""},
        {"channel": ""},
        {"channel": "x" * 65},
        {"uid": -1},
        {"uid": 2**32},
        {"privileges": {}},
        {"expire": 2**32},
    ],
)
def test_builder_refuses_what_the_provider_would_refuse(bad):
    arguments = {
        "app_id": "a" * 32,
        "app_certificate": "b" * 32,
        "channel": "ses_abc",
        "uid": 7,
        "privileges": {1: 3600},
        "issue_ts": 1_700_000_000,
        "expire": 3600,
        "salt": 1,
    }
    with pytest.raises(ValueError):
        tokens.build_rtc_token(**{**arguments, **bad})


def test_salts_are_in_the_providers_range_and_vary():
    salts = {tokens.new_salt() for _ in range(200)}
    assert len(salts) > 190
    assert all(1 <= salt <= 99_999_999 for salt in salts)


@pytest.mark.parametrize("garbage", ["", "006abc", "007not-base64!", "007" + base64.b64encode(b"plain").decode()])
def test_reader_refuses_garbage(garbage):
    with pytest.raises(ValueError):
        tokens.read_rtc_token(garbage)
