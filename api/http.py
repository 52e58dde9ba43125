"""Django middleware of the API: a request under /api/ whose address or body holds a NUL character is
refused with 400 before any view runs (PostgreSQL text cannot hold one, so a lookup would fail with a
database error)."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote

from django.http import HttpRequest, HttpResponse, JsonResponse

API_PREFIX = "/api/"


class RefuseNulCharacters:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith(API_PREFIX) and self._holds_nul(request):
            return JsonResponse({"detail": "NUL characters are not accepted"}, status=400)
        return self.get_response(request)

    @staticmethod
    def _holds_nul(request: HttpRequest) -> bool:
        if "\x00" in request.path or "\x00" in unquote(request.META.get("QUERY_STRING", "")):
            return True
        body = request.body if request.method in ("POST", "PUT", "PATCH") else b""
        # Raw, or escaped in JSON ("\u0000").
        return b"\x00" in body or b"\\u0000" in body
