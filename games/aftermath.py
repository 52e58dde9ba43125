"""Reads of what follows a finished game, for its result panel: every seat's rating change, the rematch
offer, and the tournament the game belongs to.

Ratings and tournaments are reached through their relations to the game (`Game.rated_game`,
`Game.match_game`), so that games imports neither app. Nothing here holds a card: a rematch message
names seats, a status and a URL only.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.urls import reverse

from games.models import Game, Rematch


def tournament_of(game: Game) -> dict[str, Any] | None:
    """The tournament whose pairing dealt this game ({id, name, url}), or None for a game of the lobby."""
    try:
        tournament = game.match_game.pairing.tournament
    except ObjectDoesNotExist:
        return None
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "url": reverse("tournaments:detail", args=[tournament.pk]),
    }


def rating_changes(game: Game) -> list[dict[str, Any] | None] | None:
    """Per seat, the rating before and after the game and the change, as shown (rounded so that the
    numbers add up, ratings.models.RatingChange); None when the game was not rated (yet)."""
    try:
        rated = game.rated_game
    except ObjectDoesNotExist:
        return None
    changes = list(rated.changes.order_by("seat"))
    if not changes:
        return None
    by_seat: list[dict[str, Any] | None] = [None] * game.players
    for change in changes:
        if change.seat < game.players:
            by_seat[change.seat] = {
                "before": change.shown_before,
                "after": change.shown_after,
                "delta": change.shown_delta,
                "provisional": change.provisional,
            }
    return [{"seat": seat, **entry} if entry is not None else None for seat, entry in enumerate(by_seat)]


def rematch_json(rematch: Rematch | None) -> dict[str, Any] | None:
    if rematch is None:
        return None
    new_game = rematch.new_game_id
    return {
        "status": rematch.status,
        "offered_by": rematch.offered_by,
        "accepted": list(rematch.accepted),
        "declined_by": rematch.declined_by,
        "game": new_game,
        "url": reverse("games:game", args=[new_game]) if new_game is not None else None,
    }


def rematch_of(game: Game) -> Rematch | None:
    return Rematch.objects.filter(game=game).first()


def rematch_message(*, game: Game, rematch: Rematch | None) -> dict[str, Any]:
    """The protocol's `game.rematch` message: the same for every reader of the game."""
    return {"type": "game.rematch", "game": game.pk, "rematch": rematch_json(rematch)}


def result_extras(game: Game) -> dict[str, Any]:
    """What the finished game's `result` adds to the deal's outcome: ratings, rematch, tournament, and the
    director's decision when he stopped the game."""
    from games.decisions import decision_json  # games.decisions sends through games.broadcast, which reads here

    return {
        "rating_change": rating_changes(game),
        "rematch": rematch_json(rematch_of(game)),
        "tournament": tournament_of(game),
        "decision": decision_json(game),  # a director stopped and decided the game (games.decisions)
    }
