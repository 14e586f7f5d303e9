"""Domain errors: services raise these; each API surface renders them in its own envelope.

One error class carries a code, an HTTP status and optional details (the Zulip shape). The
code -> status table is DESIGN.md section 2 "Errors"; a service may not invent a status.
"""

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any

from django.utils.translation import gettext_noop


class ErrorCode(StrEnum):
    DEVICE_TOKEN_INVALID = "DEVICE_TOKEN_INVALID"
    DEVICE_NOT_FOUND = "DEVICE_NOT_FOUND"
    DEVICE_ALREADY_PAIRED = "DEVICE_ALREADY_PAIRED"
    AGENT_HAS_ACTIVE_SESSION = "AGENT_HAS_ACTIVE_SESSION"
    AGENT_AT_CAPACITY = "AGENT_AT_CAPACITY"
    AGENT_IN_CONVERSATION = "AGENT_IN_CONVERSATION"
    NO_ACTIVE_SESSION = "NO_ACTIVE_SESSION"
    ORDER_LOCKED = "ORDER_LOCKED"
    ORDER_EMPTY = "ORDER_EMPTY"
    PROCESSOR_NOT_CONFIGURED = "PROCESSOR_NOT_CONFIGURED"
    PROCESSOR_ACCOUNT_NOT_READY = "PROCESSOR_ACCOUNT_NOT_READY"
    PROCESSOR_ERROR = "PROCESSOR_ERROR"
    PROCESSOR_UNAVAILABLE = "PROCESSOR_UNAVAILABLE"
    PROCESSOR_CALL_IN_PROGRESS = "PROCESSOR_CALL_IN_PROGRESS"
    READER_OFFLINE = "READER_OFFLINE"
    READER_BUSY = "READER_BUSY"
    REFUND_NOT_ALLOWED = "REFUND_NOT_ALLOWED"
    SESSION_NOT_FOUND = "SESSION_NOT_FOUND"
    SESSION_ALREADY_ENDED = "SESSION_ALREADY_ENDED"
    SESSION_ALREADY_ACCEPTED = "SESSION_ALREADY_ACCEPTED"
    SESSION_IN_PROGRESS = "SESSION_IN_PROGRESS"
    SESSION_NOT_OWNED = "SESSION_NOT_OWNED"
    TRANSFER_IN_PROGRESS = "TRANSFER_IN_PROGRESS"
    TRANSFER_TARGET_UNAVAILABLE = "TRANSFER_TARGET_UNAVAILABLE"
    TRANSFER_NOT_PENDING = "TRANSFER_NOT_PENDING"
    TRANSFER_ALREADY_ACCEPTED = "TRANSFER_ALREADY_ACCEPTED"
    PAIRING_CODE_INVALID = "PAIRING_CODE_INVALID"
    PAIRING_CODE_EXPIRED = "PAIRING_CODE_EXPIRED"
    PAIRING_CODE_ALREADY_USED = "PAIRING_CODE_ALREADY_USED"
    VALIDATION_ERROR = "VALIDATION_ERROR"
    MALFORMED_REQUEST = "MALFORMED_REQUEST"
    PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE"
    UNSUPPORTED_MEDIA_TYPE = "UNSUPPORTED_MEDIA_TYPE"
    NOT_ACCEPTABLE = "NOT_ACCEPTABLE"
    RATE_LIMITED = "RATE_LIMITED"
    NOT_FOUND = "NOT_FOUND"
    METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED"
    FORBIDDEN = "FORBIDDEN"
    UNAUTHENTICATED = "UNAUTHENTICATED"
    INVALID_CREDENTIALS = "INVALID_CREDENTIALS"
    ACCOUNT_DISABLED = "ACCOUNT_DISABLED"
    OWNER_SUSPENDED = "OWNER_SUSPENDED"
    PANEL_ONLY_ACCOUNT = "PANEL_ONLY_ACCOUNT"
    CHALLENGE_NOT_FOUND = "CHALLENGE_NOT_FOUND"
    CHALLENGE_EXPIRED = "CHALLENGE_EXPIRED"
    CHALLENGE_ALREADY_USED = "CHALLENGE_ALREADY_USED"
    INVALID_2FA_CODE = "INVALID_2FA_CODE"
    CSRF_MISMATCH = "CSRF_MISMATCH"
    TLS_REQUIRED = "TLS_REQUIRED"
    INVALID_STATE = "INVALID_STATE"
    SERVICE_UNAVAILABLE = "SERVICE_UNAVAILABLE"
    INTERNAL_ERROR = "INTERNAL_ERROR"


STATUS_BY_CODE: dict[ErrorCode, int] = {
    ErrorCode.DEVICE_TOKEN_INVALID: 401,
    ErrorCode.DEVICE_NOT_FOUND: 404,
    ErrorCode.DEVICE_ALREADY_PAIRED: 409,
    ErrorCode.AGENT_HAS_ACTIVE_SESSION: 409,
    ErrorCode.AGENT_AT_CAPACITY: 409,
    ErrorCode.AGENT_IN_CONVERSATION: 409,
    ErrorCode.NO_ACTIVE_SESSION: 409,
    ErrorCode.ORDER_LOCKED: 409,
    ErrorCode.ORDER_EMPTY: 409,
    ErrorCode.PROCESSOR_NOT_CONFIGURED: 503,
    ErrorCode.PROCESSOR_ACCOUNT_NOT_READY: 409,
    ErrorCode.PROCESSOR_ERROR: 502,
    ErrorCode.PROCESSOR_UNAVAILABLE: 503,
    ErrorCode.PROCESSOR_CALL_IN_PROGRESS: 409,
    ErrorCode.READER_OFFLINE: 409,
    ErrorCode.READER_BUSY: 409,
    ErrorCode.REFUND_NOT_ALLOWED: 409,
    ErrorCode.SESSION_NOT_FOUND: 404,
    ErrorCode.SESSION_ALREADY_ENDED: 409,
    ErrorCode.SESSION_ALREADY_ACCEPTED: 409,
    ErrorCode.SESSION_IN_PROGRESS: 409,
    ErrorCode.SESSION_NOT_OWNED: 403,
    ErrorCode.TRANSFER_IN_PROGRESS: 409,
    ErrorCode.TRANSFER_TARGET_UNAVAILABLE: 409,
    ErrorCode.TRANSFER_NOT_PENDING: 409,
    ErrorCode.TRANSFER_ALREADY_ACCEPTED: 409,
    ErrorCode.PAIRING_CODE_INVALID: 404,
    ErrorCode.PAIRING_CODE_EXPIRED: 410,
    ErrorCode.PAIRING_CODE_ALREADY_USED: 409,
    ErrorCode.VALIDATION_ERROR: 422,
    ErrorCode.MALFORMED_REQUEST: 400,
    ErrorCode.PAYLOAD_TOO_LARGE: 413,
    ErrorCode.UNSUPPORTED_MEDIA_TYPE: 415,
    ErrorCode.NOT_ACCEPTABLE: 406,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.METHOD_NOT_ALLOWED: 405,
    ErrorCode.FORBIDDEN: 403,
    ErrorCode.UNAUTHENTICATED: 401,
    ErrorCode.INVALID_CREDENTIALS: 401,
    ErrorCode.ACCOUNT_DISABLED: 403,
    ErrorCode.OWNER_SUSPENDED: 403,
    ErrorCode.PANEL_ONLY_ACCOUNT: 403,
    ErrorCode.CHALLENGE_NOT_FOUND: 404,
    ErrorCode.CHALLENGE_EXPIRED: 410,
    ErrorCode.CHALLENGE_ALREADY_USED: 409,
    ErrorCode.INVALID_2FA_CODE: 422,
    ErrorCode.CSRF_MISMATCH: 419,
    ErrorCode.TLS_REQUIRED: 403,
    ErrorCode.INVALID_STATE: 409,
    ErrorCode.SERVICE_UNAVAILABLE: 503,
    ErrorCode.INTERNAL_ERROR: 500,
}


class DomainError(Exception):
    """A refusal the client can act on: rendered as {error: {code, message, ...}}.

    `message` is English (the API's `message`, whatever the request's language) and a msgid of the
    gettext catalogue: the project's makemessages reads the second argument of each
    `DomainError(...)` (docs/decisions/words.md), so the owner panel can show it in its language.
    A message with names in it is its sentence with `{name}` placeholders and `params` their
    values: the API gets the sentence filled, the panel translates the sentence, then fills it."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        params: Mapping[str, object] | None = None,
        details: Any = None,
        headers: dict[str, str] | None = None,
    ):
        self.sentence = message
        self.params = dict(params or {})
        self.message = message.format(**self.params) if params else message
        super().__init__(self.message)
        self.code = code
        self.details = details
        self.headers = headers or {}

    @property
    def status(self) -> int:
        return STATUS_BY_CODE[self.code]


# The detail of a refused choice: the API's English, a msgid of the catalogue as a message is.
MUST_BE_ONE_OF = gettext_noop("Must be one of: {choices}.")


def require_choice(value: str, choices: Iterable[str], *, field: str, message: str) -> None:
    """Refuse a value outside its closed set (422 VALIDATION_ERROR naming the field and the choices).
    `message` is marked `gettext_noop(...)` where it is written (xgettext cannot select a keyword
    argument), so it is a msgid of the catalogue as every DomainError's message is."""
    allowed = list(choices)
    if value not in allowed:
        problem = MUST_BE_ONE_OF.format(choices=", ".join(allowed))
        raise DomainError(ErrorCode.VALIDATION_ERROR, message, details={field: [problem]})
