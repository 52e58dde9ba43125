"""A refused move (`GameActionError`) and its words in the player's language."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _


class GameActionError(Exception):
    """A refused move. `code` is one of CODES; `message` says what is wrong (English; consumers
    translate by code, see `error_message`)."""

    CODES = ("malformed", "stale", "forbidden", "illegal", "finished", "not_finished")

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


ERROR_TEXTS = {
    "malformed": _("That message is not a move this table understands: %(detail)s"),
    "stale": _("The game has moved on since you saw it; here is where it stands now."),
    "forbidden": _("You do not hold a seat in this game."),
    "illegal": _("That move is not allowed now: %(detail)s"),
    "finished": _("The game is over."),
    "not_finished": _("The game is not over yet."),
}


def error_message(error: GameActionError) -> str:
    """The error in the active language (call inside translation.override)."""
    template = ERROR_TEXTS.get(error.code)
    if template is None:
        return error.message
    return str(template) % {"detail": error.message} if "%(detail)s" in str(template) else str(template)
