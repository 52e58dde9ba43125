"""The director's results: a board's outcome by a click, and a game still being played stopped and decided.

Each act comes from a form of the director's page (templates/tournaments/_direct_results.html) whose dialog
showed what would be recorded; the form says so with ``confirm=yes``, and an act without it (a forged or
half-sent form) is refused and changes nothing. The services (tournaments.services.results) check who may,
the reason and the version the director looked at.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import User
from tournaments.models import MatchGame, Pairing, Tournament
from tournaments.services import results
from tournaments.views import _back_to_direct, _seen_version, _told, director_only


def _confirmed(request: HttpRequest) -> None:
    if request.POST.get("confirm") != "yes":
        raise ValidationError(_("Confirm the decision in its dialog first: nothing was recorded."))


def _places(request: HttpRequest) -> dict[int, int]:
    """The places chosen per pairing position (fields ``place-<position>``)."""
    places = {}
    for name in request.POST:
        if name.startswith("place-"):
            try:
                places[int(name.removeprefix("place-"))] = int(request.POST.get(name, ""))
            except ValueError:
                raise ValidationError(_("Give every player of the table a place, from 1 (the best) to the last.")) from None
    return places


def _int(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise ValidationError(_("The form is incomplete: load the page again.")) from None


def _optional_int(request: HttpRequest, name: str) -> int | None:
    value = request.POST.get(name, "")
    return None if value == "" else _int(value)


@login_required
@require_POST
@director_only
def board_result(request: HttpRequest, tournament: Tournament, user: User, pairing_id: int) -> HttpResponse:
    """The outcome the director clicked for a board (tournaments.services.results.OUTCOMES)."""
    pairing = get_object_or_404(Pairing, tournament=tournament, pk=pairing_id)

    def decide() -> None:
        _confirmed(request)
        results.pairing_decide(
            pairing=pairing, outcome=request.POST.get("outcome", ""), by=user, reason=request.POST.get("reason", ""),
            seen_version=_seen_version(request), places=_places(request),
        )  # fmt: skip

    _told(request, decide, _("The result is recorded; the standings follow."))
    return _back_to_direct(request, tournament.pk)


@login_required
@require_POST
@director_only
def game_decide(request: HttpRequest, tournament: Tournament, user: User, match_game_id: int) -> HttpResponse:
    """The director stops a game being played and decides it (award, draw, replay)."""
    match_game = get_object_or_404(MatchGame, pairing__tournament=tournament, pk=match_game_id)
    # "award:1" (the button of a side) or "award" with a `winner` field; "draw"; "replay".
    decision, _colon, side = request.POST.get("decision", "").partition(":")

    def decide() -> None:
        _confirmed(request)
        winner = _optional_int(request, "winner") if not side else _int(side)
        results.match_game_decide(
            match_game=match_game, decision=decision, by=user, reason=request.POST.get("reason", ""),
            seen_version=_seen_version(request), winner=winner, places=_places(request),
            seen_seq=_optional_int(request, "seq"),
        )  # fmt: skip

    if decision == results.REPLAY:
        done = _("The game is stopped and dealt again; its players are told.")
    else:
        done = _("The game is stopped and decided; its players are told, the standings follow.")
    _told(request, decide, done)
    return _back_to_direct(request, tournament.pk)
