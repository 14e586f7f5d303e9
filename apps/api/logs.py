"""Structured logs: one JSON object per line, each carrying the id of the request it belongs to
(set by RequestIdMiddleware in a context variable, so it follows the request across threads
that copy the context, such as Django's sync-to-async bridge)."""

import contextvars
import logging

current_request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="")


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = current_request_id.get()
        return True
