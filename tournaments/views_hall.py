"""The pages a club hall and its printer use: the hall screen (a projector's full-screen view of the current
round's boards and the standings, turning between them and redrawn live) and a round's score sheets to print.

Both are public, as the tournament page is, and read only tournaments.selectors: names, boards, points and
links, never a card.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from tournaments import selectors
from tournaments.models import Tournament
from tournaments.views import _tiebreak_names

# How long each screen of the hall stays up; a club may ask for another pace with ?seconds=N.
HALL_TURN_SECONDS = 15
HALL_TURN_SECONDS_RANGE = (5, 120)
HALL_TIEBREAKS = 2  # the first tie-breaks of the tournament's order: more would not be read across a room


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("director"), pk=tournament_id)


def _turn_seconds(request: HttpRequest) -> int:
    try:
        seconds = int(request.GET.get("seconds", HALL_TURN_SECONDS))
    except ValueError:
        return HALL_TURN_SECONDS
    low, high = HALL_TURN_SECONDS_RANGE
    return min(high, max(low, seconds))


def _hall_context(tournament: Tournament) -> dict[str, Any]:
    current = selectors.current_round(tournament=tournament)
    tiebreaks = _tiebreak_names(tournament)[:HALL_TIEBREAKS]
    standings = selectors.standings(tournament=tournament)
    return {
        "tournament": tournament,
        "current_round": current,
        "upcoming_round": selectors.upcoming_round(tournament=tournament),
        "pairings": selectors.round_pairings(tournament=tournament, number=current.number) if current else [],
        "standings": standings,
        "hall_tiebreaks": tiebreaks,
        "hall_tiebreak_count": len(tiebreaks),
    }


@require_GET
def hall_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The hall screen: the whole page, its live part redrawn from hall_live."""
    tournament = _tournament(tournament_id)
    context = {**_hall_context(tournament), "turn_seconds": _turn_seconds(request)}
    return render(request, "tournaments/hall.html", context)


@require_GET
def hall_live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The hall screen's live part alone, fetched whenever the tournament's socket says it moved."""
    return render(request, "tournaments/_hall_live.html", _hall_context(_tournament(tournament_id)))


@require_GET
def score_sheets(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """A round's score sheets to print: one a board, with the players, a place for the result and signatures."""
    tournament = _tournament(tournament_id)
    round_ = next((one for one in selectors.rounds(tournament=tournament) if one.number == number), None)
    if round_ is None:
        raise Http404
    pairings = [line for line in selectors.round_pairings(tournament=tournament, number=number) if not line.pairing.bye]
    context = {
        "tournament": tournament,
        "round": round_,
        "pairings": pairings,
        "game_numbers": range(1, tournament.games_per_pairing + 1),
    }
    return render(request, "tournaments/score_sheets.html", context)
