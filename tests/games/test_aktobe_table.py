"""A whole Aktobe game at a live table (issue 8): bots and a person play through games.services, every move
checked by the engine, the record stored with its hidden cards and replayed to the same end, the result and
the deck (54 cards, jokers) revealed once it is over.

The person plays from his seat's view, as the page does: he says "one card!", gives the cards he owes, duels
and asks "how many cards?" of a player seen to forget whenever the view offers it, else makes his first legal
move when the game waits for him; so the service path of every new action is exercised.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games import services, tasks
from games.engine import State, load_record, replay_record, seat_view
from games.engine.cards import suit_of
from games.models import Game, GameStatus, Result
from games.snapshots import state_of
from games.turns import waiting_seats
from tests.games.factories import latest_game, person, table

PREFERRED = ("announce", "duel", "give", "challenge")


@pytest.fixture(autouse=True)
def no_scheduling(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The test plays the bots itself, one move at a time."""
    monkeypatch.setattr(tasks.bot_move, "delay", lambda *args: None)
    monkeypatch.setattr(tasks.finalise_game, "delay", lambda *args: None)
    monkeypatch.setattr(tasks.turn_timeout, "apply_async", lambda *args, **kwargs: None)
    yield


def _person_move(state: State, seat: int) -> dict[str, Any] | None:
    """Aktobe's moves when the view offers them (asking only a player seen to forget, as the bots do), else his
    first legal move when the game waits for him; None when it waits for nobody but the bots."""
    view = seat_view(state, seat)
    legal = view["legal"]
    for kind in PREFERRED:
        for action in legal:
            if action["type"] == kind and (kind != "challenge" or action["target"] in view["forgot"]):
                return dict(action)
    if seat in waiting_seats(state) and legal:
        return dict(legal[0])
    return None


def _play(game: Game, seat_of_person: int | None, owner: Any) -> tuple[Game, set[str]]:
    kinds: set[str] = set()
    for _ in range(6000):
        if game.status == GameStatus.FINISHED:
            break
        state = state_of(game)
        move = _person_move(state, seat_of_person) if seat_of_person is not None else None
        if move is not None:
            game = services.game_submit_action(game_id=game.pk, user=owner, action=move, seq=game.seq)
        else:
            moved = services.game_bot_move(game_id=game.pk, seq=game.seq)
            assert moved is not None, "the game waits for nobody"
            game = moved
        kinds.add(game.record["actions"][-1]["type"])
    assert game.status == GameStatus.FINISHED
    return game, kinds


@pytest.mark.django_db
@pytest.mark.parametrize("players, with_person", [(3, False), (2, True), (4, True)])
def test_a_whole_aktobe_game_at_a_live_table(players: int, with_person: bool) -> None:
    owner = person()
    aktobe = table(owner, seats=players, rules={"preset": "aktobe"})
    if with_person:
        services.table_join(table=aktobe, user=owner)
    services.table_fill_bots(table=aktobe, level="medium")
    game = latest_game(aktobe)
    record = game.record
    assert record["rules"]["preset"] == "aktobe"
    assert len(record["hidden"]) == players and record["hidden_trump"]

    game, kinds = _play(game, 0 if with_person else None, owner)
    assert {"attack", "cover", "pass"} <= kinds
    result = services.game_finalise(game_id=game.pk)
    assert isinstance(result, Result)
    game.refresh_from_db()

    # The stored record replays to the same end; the deck had 54 cards with both jokers.
    replayed = replay_record(load_record(game.record))
    assert replayed.ok and replayed.state is not None and replayed.state.finished
    final = state_of(game)
    assert replayed.state.to_json() == final.to_json()
    assert final.result is not None and result.outcome == final.result.outcome
    deck = game.revealed_deck.split()
    assert len(deck) == 54 and {"RJ", "BJ"} <= set(deck)
    # The stock ran out, so the card under the trump was turned up and named the trump from then on.
    assert not final.stock
    assert final.trump == suit_of(final.hidden_trump)
