"""One declaration per API operation, for every surface's views: what it reads (the request
body's serializer, validated before the method runs and handed to it as `data`), what it answers
(the status, and the serializer that both documents the body in the OpenAPI schema and renders
the method's result), and what it does (its docstring). The schema and the behaviour come from the same words, so
the request the schema names is the one validated and the body it shows is the one sent."""

import copy
import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any, cast

from django.http import HttpResponseBase
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from apps.api.inputs import validated

# A request body as its input serializer validated it.
Data = dict[str, Any]
Handler = Callable[..., Any]


class Answer:
    """What an operation answers: `out` (a serializer instance, `many=True` for a list) documents
    and renders the body; `envelope` names the schema of a surface's `{"data": body}` wrapper;
    no `out`: no body (204). A plain schema (a dict) only documents: the method answers its own
    Response. `built`: the method returns the body its builder made (a TypedDict whose serializer
    is derived from it, apps/core/body_shapes.py, or a body rendered with a context): it is sent
    as it is, the serializer documents it (the builders stay plain functions for the hot reads)."""

    def __init__(
        self,
        out: serializers.BaseSerializer[Any] | Mapping[str, object] | None,
        status: int = 200,
        envelope: str | None = None,
        *,
        built: bool = False,
    ) -> None:
        self.out, self.status, self.envelope, self.built = out, status, envelope, built
        # The `responses` entry of the schema; a wrapper is one named component, made once.
        self.schema = out
        if isinstance(out, serializers.BaseSerializer) and envelope is not None:
            self.schema = inline_serializer(envelope, {"data": out})

    def with_status(self, status: int) -> "Answer":
        """The same body (the same schema component) answered with another status."""
        answer = copy.copy(self)
        answer.status = status
        return answer

    def response(self, result: object) -> Response:
        if self.out is None:
            return Response(status=self.status)
        if self.built:
            return Response(result if self.envelope is None else {"data": result}, status=self.status)
        if not isinstance(self.out, serializers.BaseSerializer):
            raise TypeError("An answer with a plain schema is the method's own Response.")
        many = isinstance(self.out, serializers.ListSerializer)
        # A list's child is a serializer too (its stubs say any field).
        one = self.out.child if isinstance(self.out, serializers.ListSerializer) else self.out
        body = cast(type[serializers.BaseSerializer[Any]], type(one))(result, many=many).data
        return Response(body if self.envelope is None else {"data": body}, status=self.status)


NO_CONTENT = Answer(None, 204)


def docs(method: Handler) -> dict[str, str]:
    """The schema's summary and description from a method's docstring: its first paragraph, then
    the others; each paragraph's lines are one line in the schema, as the reader's tool wraps."""
    paragraphs = [" ".join(part.split()) for part in inspect.cleandoc(method.__doc__ or "").split("\n\n")]
    if not paragraphs[0]:
        raise TypeError(f"{method.__qualname__}: an operation says what it does in its docstring.")
    return {"summary": paragraphs[0], **({"description": "\n\n".join(paragraphs[1:])} if paragraphs[1:] else {})}


def operation(
    answer: Answer,
    *,
    body: type[serializers.Serializer[Any]] | None = None,
    query: type[serializers.Serializer[Any]] | None = None,
    **schema: Any,
) -> Callable[[Handler], Handler]:
    """A view method's declaration; its docstring is its summary (and description, from the
    second paragraph on). The method gets the validated `data` when there is a `body`, and the
    validated `query` when there is one (before it runs: bad input is 422 whatever the path
    names), and returns what `answer` renders, or a Response of its own (a page, a computed
    status). `schema`: more of extend_schema's words
    (operation_id, parameters, a description that is computed, or a `request` the method reads
    itself, where the surface's errors are not the serializer's)."""

    def declare(method: Handler) -> Handler:
        @functools.wraps(method)
        def handle(view: object, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if body is not None:
                kwargs["data"] = validated(body, request.data)
            if query is not None:
                kwargs["query"] = validated(query, request.query_params)
            result = method(view, request, *args, **kwargs)
            return result if isinstance(result, HttpResponseBase) else answer.response(result)

        handle.__doc__ = None  # said by `docs`: drf-spectacular would take it for the description as written
        declared = {"request": body, "responses": {answer.status: answer.schema}, **docs(method), **schema}
        if query is not None:
            declared["parameters"] = [query, *schema.get("parameters", [])]
        described: Handler = extend_schema(**declared)(handle)
        return described

    return declare
