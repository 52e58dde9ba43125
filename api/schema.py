"""The OpenAPI schema's description of the token authentication (drf-spectacular extension)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class ApiTokenScheme(OpenApiAuthenticationExtension):
    target_class = "api.authentication.ApiTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "http", "scheme": "bearer", "description": "An API token: `Authorization: Bearer <key>`."}


ERROR_SCHEMA = {
    "type": "object",
    "description": 'What was refused and why: `{"detail": "..."}`, a field\'s messages, or a move\'s `code`',
    "additionalProperties": {},
}
ERROR_STATUSES = {
    "400": "the request is malformed or a service refused it (the message says why)",
    "401": "a token is needed, or the one given is wrong or revoked",
    "403": "the caller may not do this",
    "404": "no such object, or not one the caller may see",
    "429": "too many requests: see Retry-After",
}


def add_error_responses(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """Every operation may answer the API's common errors; the schema says so (drf-spectacular hook)."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            # An operation that also answers CSV (?format=csv) answers its errors in CSV then too.
            csv = "text/csv" in responses.get("200", {}).get("content", {})
            for code, description in ERROR_STATUSES.items():
                if code in responses and "content" in responses[code]:
                    continue
                responses[code] = {
                    "description": responses.get(code, {}).get("description") or description,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                }
            if "409" in responses and "content" not in responses["409"]:
                responses["409"]["content"] = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
            if csv:
                for code, response in responses.items():
                    if code != "200":
                        response.setdefault("content", {})["text/csv"] = {"schema": {"type": "string"}}
    return result
