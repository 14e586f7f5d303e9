"""Holds a body to its published OpenAPI component strictly: every documented key present (unless
the serializer marks it optional), no undocumented key, each value of its type, null only where
the schema says nullable. So a builder and the serializer that documents it cannot drift apart
(docs/decisions/api.md "One definition per shape")."""

import copy
import functools

import jsonschema
from django.test import Client


@functools.cache
def _components() -> dict:
    response = Client().get("/api/schema/?format=json")
    assert response.status_code == 200
    return _strict(copy.deepcopy(response.json()["components"]["schemas"]))


def _strict(node):
    """OpenAPI 3.0's `nullable` as JSON Schema's null type; objects closed to unknown keys."""
    if isinstance(node, list):
        return [_strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _strict(value) for key, value in node.items()}
    if node.get("type") == "object" and "properties" in node:
        node.setdefault("additionalProperties", False)
    for key in ("$ref",):
        if key in node:
            node[key] = node[key].replace("#/components/schemas/", "#/definitions/")
    if node.pop("nullable", False):
        node = {"anyOf": [node, {"type": "null"}]}
    return node


def assert_conforms(body, component: str) -> None:
    """`body` (a dict or a list of them) validates against components.schemas[`component`]."""
    definitions = _components()
    assert component in definitions, f"no component {component!r} in the schema"
    schema = {"definitions": definitions, "$ref": f"#/definitions/{component}"}
    jsonschema.validate(body, schema, cls=jsonschema.Draft7Validator, format_checker=jsonschema.FormatChecker())
