"""Races on PostgreSQL (issue 10): moves and finalisations that arrive at the same moment from several
threads, each on its own database connection, as they would from several server processes.

A double-clicked move and two throwers answering the same version: one is applied, the other is refused
as stale, and the stored game is still exactly what a replay of its record gives. A finalisation run four
times at once: one result, one rating change and one ledger entry per seat.
"""

from __future__ import annotations

import functools
import importlib
import threading
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from django.apps import apps
from django.db import connection

from accounts.models import LedgerEntry, LedgerKind
from games import services
from games.services import sql, tables
from games.engine import load_record, play
from games.engine.actions import action_from_json
from games.models import ActionLog, Game, GameStatus, Result, Seat
from games.selectors import game_view_for
from games.snapshots import forget_all, state_of
from games.turns import waiting_seats
from ratings.models import RatingChange
from tests.games.factories import latest_game, person, table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("real_services", "quiet_tasks")]


@pytest.fixture
def quiet_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The races are between the calls made here; no worker joins in."""
    from games import tasks

    monkeypatch.setattr(tasks.turn_timeout, "apply_async", lambda *args, **kwargs: None)
    monkeypatch.setattr(tasks.bot_move, "delay", lambda *args: None)
    monkeypatch.setattr(tasks.finalise_game, "delay", lambda *args: None)


def _at_once(calls: Sequence[Callable[[], Any]]) -> list[Any]:
    """Run the calls on their own threads, released together; each returns its value or its exception."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        try:
            barrier.wait()
            outcomes[index] = calls[index]()
        except Exception as error:  # the refusal is what some of them must get
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


def _legal(game: Game, seat: int) -> list[dict[str, Any]]:
    user = Seat.objects.get(table=game.table, number=seat).user
    return list(game_view_for(game=game, user=user)["view"]["legal"])


def _user(game: Game, seat: int) -> Any:
    return Seat.objects.get(table=game.table, number=seat).user


def _replay_matches(game: Game) -> None:
    """The stored snapshot is what the record's actions give, one action log row for each."""
    game.refresh_from_db()
    forget_all()
    replayed = load_record({**game.record, "actions": []}).initial_state()
    for raw in game.record["actions"]:
        play(replayed, raw["seat"], action_from_json(raw))
    stored = state_of(game)
    assert replayed.hands == stored.hands
    assert (replayed.attack, replayed.cover) == (stored.attack, stored.cover)
    assert ActionLog.objects.filter(game=game).count() == len(game.record["actions"]) == game.seq


def _submit(game: Game, seat: int, action: dict[str, Any]) -> Game:
    return services.game_submit_action(game_id=game.pk, user=_user(game, seat), action=action, seq=game.seq)


def _people_game(players: int) -> Game:
    people = [person() for _ in range(players)]
    at = table(people[0], seats=players, turn_seconds=3600)
    for someone in people:
        services.table_join(table=at, user=someone)
    return latest_game(at)


def _double_click(game: Game) -> None:
    """The proof: the same move sent twice at once is applied once and refused once as stale."""
    seat = waiting_seats(state_of(game))[0]
    action = _legal(game, seat)[0]
    user = _user(game, seat)
    submit = lambda: services.game_submit_action(game_id=game.pk, user=user, action=action, seq=game.seq)  # noqa: E731
    outcomes = _at_once([submit, submit])
    applied = [outcome for outcome in outcomes if isinstance(outcome, Game)]
    refused = [outcome for outcome in outcomes if isinstance(outcome, services.GameActionError)]
    assert len(applied) == 1 and len(refused) == 1, outcomes
    assert refused[0].code == "stale"
    _replay_matches(game)
    assert game.seq == 1


def test_a_double_clicked_move_is_applied_once() -> None:
    _double_click(_people_game(2))


def test_the_race_proof_fails_when_the_game_row_is_read_without_its_lock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted defect: the move's read of the game takes no row lock, and both requests read it before either
    writes (a barrier holds them there). Both pass the version check; only the action log's unique (game,
    version) constraint stops the second write, with a database error instead of a stale refusal, and the
    proof must fail on it."""
    both_read = threading.Barrier(2, timeout=10)

    def unlocked(game_id: int) -> Game | None:
        game = Game.objects.select_related("table").filter(pk=game_id).first()
        if game is not None:
            game.turn_seconds_of_table = game.table.turn_seconds  # type: ignore[attr-defined]
            both_read.wait()
        return game

    monkeypatch.setattr(sql, "_locked_game_or_none", unlocked)
    with pytest.raises(AssertionError, match="IntegrityError"):
        _double_click(_people_game(2))


def test_two_throwers_on_the_same_version_one_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three players: play first legal moves until two seats may both throw in at the same version, then
    send both at once. The deal is fixed: in some deals these moves never give two throwers a bout."""
    monkeypatch.setattr(tables, "shuffle_seed", lambda: "two-throwers")
    game = _people_game(3)
    raced = False
    for _ in range(400):
        game.refresh_from_db()
        if game.status == GameStatus.FINISHED:
            break
        state = state_of(game)
        throws = {}
        for seat in range(3):
            if seat == state.defender or not state.attack:
                continue
            adds = [action for action in _legal(game, seat) if action["type"] == "throw"]
            if adds:
                throws[seat] = adds[0]
        if len(throws) == 2:
            calls = [functools.partial(_submit, game, seat, action) for seat, action in throws.items()]
            outcomes = _at_once(calls)
            applied = [outcome for outcome in outcomes if isinstance(outcome, Game)]
            refused = [outcome for outcome in outcomes if isinstance(outcome, services.GameActionError)]
            assert len(applied) == 1 and len(refused) == 1, outcomes
            assert refused[0].code == "stale"
            raced = True
            break
        seat = waiting_seats(state)[0]
        legal = _legal(game, seat)
        preferred = [a for a in legal if a["type"] in ("attack", "cover", "take")] or legal
        services.game_submit_action(game_id=game.pk, user=_user(game, seat), action=preferred[0], seq=game.seq)
    assert raced, "no bout with two throwers came up"
    _replay_matches(game)


def test_a_finalisation_run_four_times_at_once_settles_once() -> None:
    # A transactional test's flush removed the pools the data migration made.
    importlib.import_module("ratings.migrations.0002_default_pools").create_pools(apps, None)
    people = [person(), person()]
    at = table(people[0], seats=2, stake=40, rated=True, turn_seconds=3600)
    for someone in people:
        services.table_join(table=at, user=someone)
    game = latest_game(at)
    services.game_surrender(game_id=game.pk, user=people[1])
    entries_before = LedgerEntry.objects.filter(game=game).count()
    outcomes = _at_once([lambda: services.game_finalise(game_id=game.pk)] * 4)
    assert all(isinstance(outcome, Result) for outcome in outcomes), outcomes
    assert len({outcome.pk for outcome in outcomes}) == 1
    assert Result.objects.filter(game=game).count() == 1
    entries = LedgerEntry.objects.filter(game=game)
    settled = entries.count() - entries_before
    # The winner's share of the bank is the one row the settlement adds (the durak's stake was paid at the deal).
    assert settled == 1
    assert list(entries.filter(kind=LedgerKind.BANK_SHARE).values_list("user_id", "amount")) == [(people[0].pk, 80)]
    # Every seat's settlement row exists once: no (user, kind) pair is doubled by the race.
    pairs = list(entries.values_list("user_id", "kind"))
    assert len(pairs) == len(set(pairs)), pairs
    assert RatingChange.objects.filter(rated_game__game=game).count() == 2
