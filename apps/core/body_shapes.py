"""One definition per body: a response body's shape is a `TypedDict`. Its builder is annotated to
return it, so mypy holds the builder to the shape, and the serializer that documents it for the
OpenAPI schema is derived from it here (`serializer_for`), so adding a field is one change. Builders
stay plain functions: the status poll is the hottest request and a DRF serializer would cost as much
as its query.

What the annotations say, field by field:
- `str`, `int`, `bool`, `float`: a string, integer, boolean, number;
- `DateTimeText`: a string holding an ISO 8601 date-time (`core.timefmt.iso_z`), documented as one;
- `X | None`: may be null (a `str | None` renders "" as null too: core.body_fields);
  `NotRequired[X]`: may be absent;
- `list[X]`: an array; another TypedDict: a nested object (its own schema component);
- `Annotated[X, Doc("...")]`: the field's description in the schema.
A TypedDict's docstring becomes its schema description (write a comment to say something else).
"""

import types
from dataclasses import dataclass
from typing import (
    Annotated,
    Any,
    NewType,
    NotRequired,
    Required,
    TypeVar,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)
from typing import is_typeddict as _is_typeddict

from rest_framework import serializers

from apps.core.body_fields import OptionalTextField

DateTimeText = NewType("DateTimeText", str)


@dataclass(frozen=True)
class Doc:
    """The description of a field in the schema: `Annotated[str, Doc("...")]`."""

    text: str


AnyField = serializers.Field[Any, Any, Any, Any]

_SCALARS: dict[Any, type[AnyField]] = {
    str: serializers.CharField,
    int: serializers.IntegerField,
    bool: serializers.BooleanField,
    float: serializers.FloatField,
    DateTimeText: serializers.DateTimeField,
}
_derived: dict[Any, Any] = {}


def serializer_for(shape: Any, component: str | None = None, description: str | None = None) -> Any:
    """The serializer documenting TypedDict `shape` (or a generic TypedDict given its type
    arguments, `OrderBody[AgentOrderLineBody]`): the schema shows it as the component
    `component` (by default the shape's name) described by `description` (by default its
    docstring). One per shape: derive a nested shape first to name its component."""
    typed_dict = get_origin(shape) or shape
    if not _is_typeddict(typed_dict):
        raise TypeError(f"{shape!r} is not a TypedDict")
    if shape not in _derived:
        arguments = dict(zip(getattr(typed_dict, "__parameters__", ()), get_args(shape), strict=False))
        hints = {
            name: _substitute(hint, arguments) for name, hint in get_type_hints(typed_dict, include_extras=True).items()
        }
        fields = {name: _field(hint, required=name in typed_dict.__required_keys__) for name, hint in hints.items()}
        doc = description or typed_dict.__doc__
        attributes: dict[str, Any] = {**fields, "__module__": typed_dict.__module__, "__doc__": doc}
        name = f"{component or typed_dict.__name__}Serializer"  # drf-spectacular drops the suffix
        _derived[shape] = type(name, (serializers.Serializer,), attributes)
    return _derived[shape]


def _substitute(hint: Any, arguments: dict[Any, Any]) -> Any:
    """`hint` with a generic shape's type variables replaced by its arguments (`list[L]`)."""
    if isinstance(hint, TypeVar):
        return arguments[hint]
    if get_origin(hint) is list:
        return list[_substitute(get_args(hint)[0], arguments)]  # type: ignore[misc]
    return hint


def _field(hint: Any, *, required: bool = True) -> AnyField:
    while get_origin(hint) in (NotRequired, Required):  # the shape's required keys say which
        (hint,) = get_args(hint)
    options: dict[str, Any] = {} if required else {"required": False}
    if get_origin(hint) is Annotated:
        hint, *extras = get_args(hint)
        for extra in extras:
            if isinstance(extra, Doc):
                options["help_text"] = extra.text
    if get_origin(hint) in (Union, types.UnionType):
        members = [member for member in get_args(hint) if member is not type(None)]
        if len(members) != 1:
            raise TypeError(f"only `X | None` unions have a schema here, not {hint!r}")
        hint, options["allow_null"] = members[0], True
        if hint is str:  # stored "" (Django's blank), rendered and documented as null
            return OptionalTextField(**options)
    if get_origin(hint) is list:
        (item,) = get_args(hint)
        if _is_typeddict(item):
            nested: AnyField = serializer_for(item)(many=True, **options)
            return nested
        return serializers.ListField(child=_field(item), **options)
    if _is_typeddict(hint):
        single: AnyField = serializer_for(hint)(**options)
        return single
    if hint in _SCALARS:
        return _SCALARS[hint](**options)
    raise TypeError(f"no schema field for {hint!r}")
