"""Errors answered as the processor answers them: `{"error": {type, code, message, param}}`, so the
`stripe` library raises its usual exceptions (400/404 InvalidRequestError, 401 AuthenticationError,
402 CardError)."""

from django.http import JsonResponse

# A JSON object as the processor's API reads and answers it (an intent, an event, an error).
ProcessorJson = dict[str, object]


class DemoError(Exception):
    def __init__(
        self,
        status: int,
        kind: str,
        message: str,
        *,
        code: str = "",
        param: str = "",
        extra: ProcessorJson | None = None,
    ) -> None:
        super().__init__(message)
        self.status, self.kind, self.message, self.code, self.param = status, kind, message, code, param
        self.extra = extra or {}

    def body(self) -> ProcessorJson:
        error: ProcessorJson = {"type": self.kind, "message": self.message, **self.extra}
        if self.code:
            error["code"] = self.code
        if self.param:
            error["param"] = self.param
        return {"error": error}

    def response(self) -> JsonResponse:
        return JsonResponse(self.body(), status=self.status)


def missing(kind: str, object_id: str, param: str = "id") -> DemoError:
    return DemoError(
        404, "invalid_request_error", f"No such {kind}: '{object_id[:80]}'", code="resource_missing", param=param
    )


def invalid(param: str, message: str) -> DemoError:
    return DemoError(400, "invalid_request_error", message, code="parameter_invalid", param=param)
