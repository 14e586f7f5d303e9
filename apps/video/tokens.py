"""The video provider's AccessToken2 ("007") RTC tokens, built with the standard library only.

Layout, checked byte for byte against the provider's own Node library (npm `agora-token`,
`src/AccessToken2.js`) by tests/video/test_video_token_peer.py:

    token        = "007" + base64(zlib(pack_string(signature) + signing_info))
    signing_info = pack_string(app_id) + uint32(issue_ts) + uint32(expire) + uint32(salt)
                   + uint16(service count) + each service, in service-type order
    RTC service  = uint16(1) + map<uint16 privilege, uint32 expire> (keys ascending)
                   + pack_string(channel) + pack_string(str(uid), "" for uid 0)
    signing key  = HMAC-SHA256(key=uint32(salt), msg=HMAC-SHA256(key=uint32(issue_ts), msg=certificate))
    signature    = HMAC-SHA256(key=signing key, msg=signing_info)

Integers are little-endian; pack_string is a uint16 length followed by the bytes. `expire` and
every privilege value are seconds counted from `issue_ts` (not absolute times).
"""

import base64
import hashlib
import hmac
import re
import secrets
import struct
import zlib
from collections.abc import Mapping
from dataclasses import dataclass

VERSION = "007"

SERVICE_RTC = 1
PRIVILEGE_JOIN_CHANNEL = 1
PRIVILEGE_PUBLISH_AUDIO_STREAM = 2
PRIVILEGE_PUBLISH_VIDEO_STREAM = 3
PRIVILEGE_PUBLISH_DATA_STREAM = 4

PUBLISHER_PRIVILEGES = (
    PRIVILEGE_JOIN_CHANNEL,
    PRIVILEGE_PUBLISH_AUDIO_STREAM,
    PRIVILEGE_PUBLISH_VIDEO_STREAM,
    PRIVILEGE_PUBLISH_DATA_STREAM,
)
SUBSCRIBER_PRIVILEGES = (PRIVILEGE_JOIN_CHANNEL,)

UINT32_MAX = 2**32 - 1
MAX_CHANNEL_BYTES = 64  # the provider refuses longer channel names
_HEX32 = re.compile(r"[0-9a-fA-F]{32}")


def pack_uint16(value: int) -> bytes:
    return struct.pack("<H", value)


def pack_uint32(value: int) -> bytes:
    return struct.pack("<I", value)


def pack_string(value: bytes) -> bytes:
    return pack_uint16(len(value)) + value


def pack_privileges(privileges: Mapping[int, int]) -> bytes:
    """map<uint16, uint32>, keys in ascending order (the provider's TreeMap)."""
    packed = pack_uint16(len(privileges))
    for key in sorted(privileges):
        packed += pack_uint16(key) + pack_uint32(privileges[key])
    return packed


def is_provider_key(value: str) -> bool:
    """App ids and certificates are 32 hexadecimal characters; the provider refuses other shapes."""
    return isinstance(value, str) and _HEX32.fullmatch(value) is not None


def new_salt() -> int:
    """A random salt in 1..99999999, the range the provider's libraries draw from."""
    return secrets.randbelow(99_999_999) + 1


def _signing_key(app_certificate: str, *, issue_ts: int, salt: int) -> bytes:
    key = hmac.new(pack_uint32(issue_ts), app_certificate.encode(), hashlib.sha256).digest()
    return hmac.new(pack_uint32(salt), key, hashlib.sha256).digest()


def build_rtc_token(
    *,
    app_id: str,
    app_certificate: str,
    channel: str,
    uid: int,
    privileges: Mapping[int, int],
    issue_ts: int,
    expire: int,
    salt: int,
) -> str:
    """One AccessToken2 with a single RTC service. `expire` and the privilege values are
    seconds after `issue_ts`. Raises ValueError for anything the provider would refuse."""
    if not is_provider_key(app_id) or not is_provider_key(app_certificate):
        raise ValueError("The video app id and certificate must be 32 hexadecimal characters each.")
    channel_bytes = channel.encode()
    if not channel_bytes or len(channel_bytes) > MAX_CHANNEL_BYTES:
        raise ValueError(f"The channel name must be 1-{MAX_CHANNEL_BYTES} bytes.")
    if not privileges:
        raise ValueError("An RTC token needs at least one privilege.")
    for number in (uid, issue_ts, expire, salt, *privileges.values()):
        if not 0 <= number <= UINT32_MAX:
            raise ValueError(f"{number} does not fit an unsigned 32-bit integer.")

    service = (
        pack_uint16(SERVICE_RTC)
        + pack_privileges(privileges)
        + pack_string(channel_bytes)
        + pack_string(b"" if uid == 0 else str(uid).encode())
    )
    signing_info = (
        pack_string(app_id.encode())
        + pack_uint32(issue_ts)
        + pack_uint32(expire)
        + pack_uint32(salt)
        + pack_uint16(1)
        + service
    )
    key = _signing_key(app_certificate, issue_ts=issue_ts, salt=salt)
    signature = hmac.new(key, signing_info, hashlib.sha256).digest()
    content = pack_string(signature) + signing_info
    return VERSION + base64.b64encode(zlib.compress(content)).decode("ascii")


def token_content(token: str) -> bytes:
    """The inflated bytes of a token (signature + signing info)."""
    if not token.startswith(VERSION):
        raise ValueError(f"Not a {VERSION} token.")
    try:
        return zlib.decompress(base64.b64decode(token[len(VERSION) :], validate=True))
    except (ValueError, zlib.error) as exc:
        raise ValueError(f"Not a {VERSION} token: {exc}") from None


@dataclass(frozen=True)
class RtcTokenContents:
    signature: bytes
    signing_info: bytes
    app_id: str
    issue_ts: int
    expire: int
    salt: int
    channel: str
    uid: int
    privileges: dict[int, int]


class _Reader:
    def __init__(self, data: bytes):
        self.data, self.offset = data, 0

    def take(self, size: int) -> bytes:
        if self.offset + size > len(self.data):
            raise ValueError("The token is truncated.")
        chunk = self.data[self.offset : self.offset + size]
        self.offset += size
        return chunk

    def uint16(self) -> int:
        (value,) = struct.unpack("<H", self.take(2))
        return int(value)

    def uint32(self) -> int:
        (value,) = struct.unpack("<I", self.take(4))
        return int(value)

    def string(self) -> bytes:
        return self.take(self.uint16())


def read_rtc_token(token: str) -> RtcTokenContents:
    """Decode a token holding one RTC service (what `build_rtc_token` makes). Checks no signature:
    see `verify_signature`."""
    reader = _Reader(token_content(token))
    signature = reader.string()
    signing_info = reader.data[reader.offset :]
    app_id = reader.string().decode()
    issue_ts, expire, salt = reader.uint32(), reader.uint32(), reader.uint32()
    if reader.uint16() != 1 or reader.uint16() != SERVICE_RTC:
        raise ValueError("Expected exactly one RTC service.")
    privileges = {}
    for _ in range(reader.uint16()):
        key = reader.uint16()
        privileges[key] = reader.uint32()
    channel = reader.string().decode()
    uid_text = reader.string().decode()
    if reader.offset != len(reader.data):
        raise ValueError("Unexpected bytes after the RTC service.")
    return RtcTokenContents(
        signature=signature,
        signing_info=signing_info,
        app_id=app_id,
        issue_ts=issue_ts,
        expire=expire,
        salt=salt,
        channel=channel,
        uid=int(uid_text) if uid_text else 0,
        privileges=privileges,
    )


def verify_signature(token: str, app_certificate: str) -> bool:
    """Whether `token` was signed with `app_certificate` (as the provider checks it)."""
    contents = read_rtc_token(token)
    key = _signing_key(app_certificate, issue_ts=contents.issue_ts, salt=contents.salt)
    expected = hmac.new(key, contents.signing_info, hashlib.sha256).digest()
    return hmac.compare_digest(expected, contents.signature)
