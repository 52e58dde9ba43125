"""API errors: DRF's handler, plus the services' refusals as 400 (ValidationError) or their game codes."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.services import GameActionError

# A refused move's HTTP status by its code (games.services.GameActionError.CODES).
GAME_ERROR_STATUS = {
    "malformed": status.HTTP_400_BAD_REQUEST,
    "illegal": status.HTTP_400_BAD_REQUEST,
    "stale": status.HTTP_409_CONFLICT,
    "finished": status.HTTP_409_CONFLICT,
    "not_finished": status.HTTP_409_CONFLICT,
    "forbidden": status.HTTP_403_FORBIDDEN,
}


def validation_messages(error: ValidationError) -> Any:
    if hasattr(error, "error_dict"):
        return {field: [str(message) for message in messages] for field, messages in error.message_dict.items()}
    return {"detail": " ".join(str(message) for message in error.messages)}


def exception_handler(error: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(error, ValidationError):
        return Response(validation_messages(error), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(error, GameActionError):
        return Response(
            {"code": error.code, "detail": error.message}, status=GAME_ERROR_STATUS.get(error.code, 400)
        )
    return drf_exception_handler(error, context)
