"""A finished game settled: its result stored, the chips paid out, the deck revealed, the listeners told.

Like lichess's Finisher (STYLE.md 7): one step, once per game however often it is called; ratings and
tournaments react to `games.hooks.game_finished`.
"""

from __future__ import annotations


from django.db import transaction

from accounts.models import LedgerKind, User
from accounts.services import ledger_record
from games import decisions, hooks
from games.broadcast import send_game
from games.engine import Rules, deal, places, settlement, verify_commitment
from games.engine.deal import deck_text
from games.models import Game, GameStatus, Result
from games.selectors import game_result, game_seats
from games.services.errors import GameActionError
from games.services.sql import _locked_game
from games.snapshots import state_of


@transaction.atomic
def game_finalise(*, game_id: int) -> Result:
    """Store the result, settle the chips, reveal the deck and tell ratings and tournaments; once per
    game however often and however concurrently it is called."""
    game = _locked_game(game_id)
    existing = Result.objects.filter(game=game).first()
    if existing is not None:
        return existing
    if game.status != GameStatus.FINISHED:
        raise GameActionError("not_finished", "the game is still being played")
    state = state_of(game)
    decision = decisions.decision_of(game)
    if decision is not None:  # a director stopped the game and decided it (games.decisions)
        outcome, groups, chips = decisions.decided_result(state, decision)
    else:  # played to its end, or a surrender (the engine's action; a clock's fall is recorded as one)
        assert state.result is not None
        outcome, groups, chips = state.result, places(state), settlement(state)
    deck = _dealt_deck(game)
    if not game.deck_held:
        game.revealed_deck = deck
        game.save(update_fields=["revealed_deck"])
    result = Result.objects.create(
        game=game,
        **outcome.to_json(),  # the record's result object, field for field
        places=groups,
        chips=chips,
        # A fall of the clock ends the game as a surrender does, but he did not give up (the view's `flagged`).
        surrendered=game.surrendered if game.flagged is None else None,
    )
    seats = game_seats(game)
    entries: list[tuple[User | int, int, str]] = []
    draw = outcome.draw
    for seat in seats[: game.players]:
        if seat.user_id is None:
            continue
        paid = state.paid[seat.number]
        penalty = paid - game.stake
        if penalty > 0:
            entries.append((seat.user_id, -penalty, LedgerKind.PENALTY))
        received = chips[seat.number] + paid
        if received > 0:
            entries.append((seat.user_id, received, LedgerKind.REFUND if draw else LedgerKind.BANK_SHARE))
    ledger_record(entries=entries, game=game)
    if decisions.counts(decision):
        hooks.game_finished(result)

    def deliver() -> None:
        send_game(game=game, seats=seats, state=state, result=result)

    transaction.on_commit(deliver)
    return result


def _dealt_deck(game: Game) -> str:
    """The game's deck as it was dealt (its seed at its rotation), checked against its commitment."""
    rules = Rules.from_dict(game.rules)
    deck = deck_text(deal(rules, game.players, seed=game.seed, salt=game.salt, rotation=game.rotation).order)
    if not verify_commitment(game.commitment, game.salt, deck):
        raise RuntimeError(f"game {game.pk}: the deck does not match its commitment")
    return deck


@transaction.atomic
def games_reveal(*, game_ids: list[int]) -> int:
    """The decks a duplicate round held back (Game.deck_held) are shown now that every board of the round is
    over: each finished game's deck revealed, its record and replay open. Returns how many were held."""
    revealed = 0
    for game in Game.objects.select_for_update().filter(pk__in=game_ids, deck_held=True, status=GameStatus.FINISHED):
        game.revealed_deck = _dealt_deck(game) if Result.objects.filter(game=game).exists() else ""
        game.deck_held = False
        game.save(update_fields=["revealed_deck", "deck_held"])
        revealed += 1
    return revealed


def game_finalised(*, game: Game) -> Result | None:
    return game_result(game)

