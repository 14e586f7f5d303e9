"""The JSON parser every API surface uses (DEFAULT_PARSER_CLASSES), with two limits DRF's lacks:
nesting depth (API_JSON_MAX_DEPTH) and NUL characters. Without them a deeply nested body ends in
a RecursionError (a 500 with a traceback per request) and a NUL in any string reaches PostgreSQL,
which cannot store it, as a DataError. Both are 400 MALFORMED_REQUEST instead.

The processor webhooks parse their raw body with `loads` below for the same reasons."""

import codecs
import json
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework import parsers
from rest_framework.exceptions import ParseError
from rest_framework.utils.json import strict_constant


class BodyRejected(ValueError):
    """The body is JSON we refuse: nested too deeply or holding a NUL character."""


def _check(value: object, max_depth: int) -> None:
    """Walk the parsed value without recursion: depth within the limit, no NUL in any string."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise BodyRejected("Strings may not contain NUL characters.")
            continue
        if not isinstance(item, (dict, list)):
            continue
        if depth > max_depth:
            raise BodyRejected(f"The JSON is nested more than {max_depth} levels deep.")
        if isinstance(item, dict):
            stack.extend((key, depth) for key in item)
            stack.extend((child, depth + 1) for child in item.values())
        else:
            stack.extend((child, depth + 1) for child in item)


def loads(text: str | bytes) -> Any:
    """Strict json.loads (no NaN or Infinity) within the depth limit and without NUL characters;
    ValueError (BodyRejected for the limits) otherwise."""
    max_depth = settings.API_JSON_MAX_DEPTH
    try:
        value = json.loads(text, parse_constant=strict_constant)
    except RecursionError:  # far past the limit: the C scanner gave up before we could look
        raise BodyRejected(f"The JSON is nested more than {max_depth} levels deep.") from None
    _check(value, max_depth)
    return value


class JSONParser(parsers.JSONParser):
    def parse(
        self, stream: IO[Any], media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        # get_encoding (refusing bytes-to-bytes codecs) is newer than the DRF stubs.
        encoding: str = parsers.get_encoding(parser_context or {})  # type: ignore[attr-defined]
        try:
            return loads(codecs.getreader(encoding)(stream).read())
        except BodyRejected as exc:
            raise ParseError(str(exc)) from None
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
