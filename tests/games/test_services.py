"""games.services on a real database: seats, the start, moves with the version check, timers, bots,
surrender, and a finalisation that settles exactly once however often it runs."""

from __future__ import annotations

import datetime
import importlib
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.core.exceptions import ValidationError
from django.db import close_old_connections
from django.test import override_settings
from django.utils import timezone

from accounts.ledger import STARTING_GRANT, ledger_balance
from accounts.models import LedgerEntry, LedgerKind
from games import hooks, services
from games.bots.knowledge import seen_in_log
from games.engine import Rules, load_record, replay_record, settlement, verify_commitment
from games.models import ActionLog, Game, GameStatus, Result, Seat, Table, TableStatus
from games.selectors import game_record_json, game_view_for, lobby_tables
from games.services import GameActionError, tables
from games.snapshots import state_of
from games.turns import waiting_seats
from tests.games.factories import latest_game, person, table


@pytest.fixture(autouse=True)
def no_tasks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, tuple[object, ...]]]]:
    """Record scheduled tasks instead of running them, so a test drives the game step by step."""
    scheduled: list[tuple[str, tuple[object, ...]]] = []
    from games import tasks

    monkeypatch.setattr(tasks.bot_move, "delay", lambda *args: scheduled.append(("bot_move", args)))
    monkeypatch.setattr(tasks.finalise_game, "delay", lambda *args: scheduled.append(("finalise_game", args)))
    monkeypatch.setattr(
        tasks.turn_timeout, "apply_async",
        lambda args, countdown: scheduled.append(("turn_timeout", (*args, countdown))),
    )  # fmt: skip
    yield scheduled


def _first_legal(game: Game, seat: int) -> dict[str, object]:
    """A plain move that ends the game: pass when he may, else cover, lead, take; no throw-ins (at a
    cheating table the first listed throw may be a cheat, which an accusation would return to his hand)."""
    view = game_view_for(game=game, user=Seat.objects.get(table=game.table, number=seat).user)
    legal = view["view"]["legal"]
    for kind in ("pass", "cover", "attack", "take"):
        for action in legal:
            if action["type"] == kind:
                return dict(action)
    return dict(next(action for action in legal if action["type"] != "accuse"))


def _play_out(game: Game) -> Game:
    """Play the game to its end with each waiting person's first legal move."""
    for _ in range(2000):
        game.refresh_from_db()
        if game.status == GameStatus.FINISHED:
            return game
        seat = waiting_seats(state_of(game))[0]
        user = Seat.objects.get(table=game.table, number=seat).user
        assert user is not None
        services.game_submit_action(game_id=game.pk, user=user, action=_first_legal(game, seat), seq=game.seq)
    raise AssertionError("the game did not end")


@pytest.mark.django_db
def test_joining_every_seat_starts_the_game_and_charges_the_stakes() -> None:
    anna, boris = person("anna"), person("boris")
    stake_table = table(anna, stake=100, name="Evening")
    assert [t["id"] for t in lobby_tables()] == [stake_table.pk]
    services.table_join(table=stake_table, user=anna)
    assert not Game.objects.exists()
    services.table_join(table=stake_table, user=boris)

    game = latest_game(stake_table)
    stake_table.refresh_from_db()
    assert stake_table.status == TableStatus.PLAYING
    assert game.seq == 0 and game.status == GameStatus.PLAYING
    assert ledger_balance(user=anna) == STARTING_GRANT - 100
    assert list(LedgerEntry.objects.filter(game=game).values_list("kind", flat=True)) == ["stake", "stake"]
    # The commitment is that of the deck the record was dealt from, which is not shown yet.
    assert len(game.commitment) == 64 and game.revealed_deck == ""


@pytest.mark.django_db
def test_seat_rules() -> None:
    anna, boris, vera = person(), person(), person()
    locked = table(anna, seats=3, private=True, password="secret", stake=10)
    with pytest.raises(ValidationError):
        services.table_join(table=locked, user=boris, password="wrong")
    services.table_join(table=locked, user=boris, password="secret", seat=2)
    with pytest.raises(ValidationError):
        services.table_join(table=locked, user=vera, password="secret", seat=2)
    services.table_leave(table=locked, user=boris)
    assert Seat.objects.get(table=locked, number=2).user is None
    with pytest.raises(ValidationError):
        table(anna, seats=7)  # a 36-card deck seats six
    poor = person()
    LedgerEntry.objects.create(user=poor, amount=-STARTING_GRANT, kind=LedgerKind.PENALTY)
    with pytest.raises(ValidationError):
        services.table_join(table=locked, user=poor, password="secret")


@pytest.mark.django_db
def test_table_create_refuses_options_that_do_not_go_together_and_writes_nothing() -> None:
    anna = person()
    cheating = Rules.from_dict({"preset": "podkidnoy", "cheating": True})
    with pytest.raises(ValidationError) as rated_cheating:
        services.table_create(owner=anna, rules=cheating, seats=2, rated=True)
    assert set(rated_cheating.value.message_dict) == {"cheating"}
    with pytest.raises(ValidationError) as listed_password:
        services.table_create(owner=anna, rules=Rules(), seats=2, password="secret")
    assert set(listed_password.value.message_dict) == {"password"}
    assert not Table.objects.exists() and not Seat.objects.exists()
    assert services.table_create(owner=anna, rules=cheating, seats=2, private=True, password="secret").rated is False


@pytest.mark.django_db(transaction=True)
def test_moves_are_checked_and_applied_once(no_tasks: list[tuple[str, tuple[object, ...]]]) -> None:
    anna, boris, stranger = person(), person(), person()
    heads_up = table(anna)
    services.table_join(table=heads_up, user=anna)
    services.table_join(table=heads_up, user=boris)
    game = latest_game(heads_up)
    leader = waiting_seats(state_of(game))[0]
    leader_user = [anna, boris][leader]
    other_user = [anna, boris][1 - leader]
    move = _first_legal(game, leader)

    def refused(code: str, **kwargs: object) -> None:
        seq_before, logged_before = Game.objects.get(pk=game.pk).seq, ActionLog.objects.count()
        with pytest.raises(GameActionError) as caught:
            services.game_submit_action(**{"game_id": game.pk, "user": leader_user, "action": move, "seq": 0, **kwargs})  # type: ignore[arg-type]
        assert caught.value.code == code
        assert Game.objects.get(pk=game.pk).seq == seq_before and ActionLog.objects.count() == logged_before

    refused("forbidden", user=stranger)
    refused("stale", seq=5)
    refused("malformed", action={"type": "fly"})
    refused("malformed", action={"type": "attack", "cards": ["XX"]})
    refused("illegal", user=other_user)  # not his lead
    refused("illegal", action={"type": "take"})

    services.game_submit_action(game_id=game.pk, user=leader_user, action=move, seq=0)
    refused("stale", seq=0)  # the same message again is not applied twice
    log = ActionLog.objects.get()
    assert (log.seq, log.seat, log.action, log.by_timer) == (0, leader, move, False)


@pytest.mark.django_db(transaction=True)
def test_one_turn_timer_on_its_way_serves_the_moves_made_before_it_fires(
    no_tasks: list[tuple[str, tuple[object, ...]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    start = timezone.now()
    clock = [start]
    monkeypatch.setattr("django.utils.timezone.now", lambda: clock[0])
    anna, boris = person(), person()
    heads_up = table(anna, turn_seconds=30)
    services.table_join(table=heads_up, user=anna)
    services.table_join(table=heads_up, user=boris)
    game = latest_game(heads_up)
    assert no_tasks == [("turn_timeout", (game.pk, 0, 30.0))]
    assert game.timer_at == game.deadline == start + datetime.timedelta(seconds=30)

    # Moves 10 s later schedule no timer while the first one is on its way: it fires before their deadline.
    clock[0] = start + datetime.timedelta(seconds=10)
    for _ in range(3):
        game.refresh_from_db()
        seat = waiting_seats(state_of(game))[0]
        user = Seat.objects.get(table=game.table, number=seat).user
        assert user is not None
        services.game_submit_action(game_id=game.pk, user=user, action=_first_legal(game, seat), seq=game.seq)
    game.refresh_from_db()
    assert len(no_tasks) == 1 and game.seq == 3
    assert game.timer_at == start + datetime.timedelta(seconds=30)
    assert game.deadline == start + datetime.timedelta(seconds=40)

    # Fired before its time (a copy, say), it changes nothing: it is itself still on its way.
    assert services.game_timeout(game_id=game.pk, seq=0) is None
    assert len(no_tasks) == 1
    # At its time the game has moved on: it plays nothing and schedules the timer of the current version,
    # due at its deadline.
    clock[0] = start + datetime.timedelta(seconds=30)
    assert services.game_timeout(game_id=game.pk, seq=0) is None
    game.refresh_from_db()
    assert game.seq == 3 and not ActionLog.objects.filter(game=game, by_timer=True).exists()
    assert no_tasks[-1] == ("turn_timeout", (game.pk, 3, 10.0))
    assert game.timer_at == game.deadline
    # A copy of the old timer finds the new one on its way and schedules nothing more.
    services.game_timeout(game_id=game.pk, seq=0)
    assert len(no_tasks) == 2
    # The current version's timer plays the default move, and the next version needs a timer again.
    clock[0] = start + datetime.timedelta(seconds=40)
    services.game_timeout(game_id=game.pk, seq=3)
    game.refresh_from_db()
    assert game.seq == 4 and ActionLog.objects.get(game=game, seq=3).by_timer
    assert no_tasks[-1] == ("turn_timeout", (game.pk, 4, 30.0))


@pytest.mark.django_db(transaction=True)
def test_a_played_game_finishes_and_settles_once(
    no_tasks: list[tuple[str, tuple[object, ...]]], monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A fixed deal: three players who each make their first legal move pass the same cards round for ever on
    # about 1 deal in 400 (QH and KH taken and led on, the stock empty).
    monkeypatch.setattr(tables, "shuffle_seed", lambda: "settles-once")
    players = [person() for _ in range(3)]
    three = table(players[0], seats=3, stake=50, rules={"preset": "perevodnoy"})
    for one in players:
        services.table_join(table=three, user=one)
    game = _play_out(latest_game(three))
    assert ("finalise_game", (game.pk,)) in no_tasks
    with pytest.raises(ValidationError):
        game_record_json(game=Game.objects.create(
            table=three, rules={}, players=2, record={}, seed="", salt="", commitment=""))

    finished: list[Result] = []
    hooks.on_game_finished(finished.append)
    try:
        result = services.game_finalise(game_id=game.pk)
        again = services.game_finalise(game_id=game.pk)
    finally:
        hooks.remove_game_finished(finished.append)
    assert again.pk == result.pk and finished == [result]
    game.refresh_from_db()

    replay = replay_record(load_record(game_record_json(game=game)))
    assert replay.ok and replay.state is not None and replay.state.finished
    assert result.chips == settlement(replay.state)
    # Stakes of 50 from three players, no cheating: the durak pays 50, the two others share the bank of 150.
    if result.outcome == "draw":
        assert result.chips == [0, 0, 0]
    else:
        assert result.chips[result.durak] == -50 and sorted(result.chips) == [-50, 25, 25]
    assert replay.state.result is not None and result.durak == replay.state.result.durak
    for seat, user in enumerate(players):
        net = sum(LedgerEntry.objects.filter(game=game, user=user).values_list("amount", flat=True))
        assert net == result.chips[seat]
    assert verify_commitment(game.commitment, game.salt, game.revealed_deck)
    assert ActionLog.objects.filter(game=game).count() == game.seq == len(game.record["actions"])


@pytest.mark.django_db(transaction=True)
def test_concurrent_finalisation_writes_one_result_and_one_settlement() -> None:
    players = [person() for _ in range(2)]
    heads_up = table(players[0], stake=20)
    for one in players:
        services.table_join(table=heads_up, user=one)
    game = _play_out(latest_game(heads_up))
    rows_before = LedgerEntry.objects.count()

    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def finalise() -> None:
        try:
            barrier.wait(5)
            services.game_finalise(game_id=game.pk)
        except BaseException as error:  # noqa: B036 - reported to the main thread
            errors.append(error)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=finalise) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors, errors
    assert Result.objects.filter(game=game).count() == 1
    settled = LedgerEntry.objects.filter(game=game).exclude(kind=LedgerKind.STAKE)
    assert settled.count() == LedgerEntry.objects.count() - rows_before
    assert sum(settled.values_list("amount", flat=True)) == 40  # the bank, paid out once


@pytest.mark.django_db(transaction=True)
def test_the_timer_plays_the_default_move_and_three_timeouts_bring_the_autopilot(
    no_tasks: list[tuple[str, tuple[object, ...]]],
) -> None:
    anna, boris = person(), person()
    heads_up = table(anna)
    services.table_join(table=heads_up, user=anna)
    services.table_join(table=heads_up, user=boris)
    game = latest_game(heads_up)
    state = state_of(game)
    leader = state.attacker
    hand = state.hands[leader]
    lowest = min((card for card in range(64) if hand >> card & 1), key=lambda c: (c & 3 == state.trump, c >> 2))

    assert services.game_timeout(game_id=game.pk, seq=5) is None  # a late timer does nothing
    services.game_timeout(game_id=game.pk, seq=0)
    game.refresh_from_db()
    first = ActionLog.objects.get(seq=0)
    assert first.by_timer and first.seat == leader and first.action["type"] == "attack"
    assert first.action["cards"] == [_name(lowest)]
    assert game.timeouts[leader] == 1
    services.game_timeout(game_id=game.pk, seq=0)  # the same timer again: nothing
    assert Game.objects.get(pk=game.pk).seq == 1

    # The defender lets his time run out: he takes; then the attacker passes ("that is all").
    services.game_timeout(game_id=game.pk, seq=1)
    game.refresh_from_db()
    assert [a.action["type"] for a in ActionLog.objects.order_by("seq")][1] == "take"
    while game.timeouts[leader] < 3 and game.status == GameStatus.PLAYING:
        services.game_timeout(game_id=game.pk, seq=game.seq)
        game.refresh_from_db()
    assert game.autopilot[leader] is True
    # The autopiloted seat is a bot's job now: a bot move is scheduled when he is waited for.
    if leader in waiting_seats(state_of(game)):
        assert ("bot_move", (game.pk, game.seq)) in no_tasks
        services.game_bot_move(game_id=game.pk, seq=game.seq)
        assert ActionLog.objects.latest("seq").by_autopilot
    # His own move ends the autopilot.
    game.refresh_from_db()
    me = [anna, boris][leader]
    while leader not in waiting_seats(state_of(game)) and game.status == GameStatus.PLAYING:
        other = 1 - leader
        services.game_submit_action(game_id=game.pk, user=[anna, boris][other], action=_first_legal(game, other),
                                    seq=game.seq)
        game.refresh_from_db()
    if game.status == GameStatus.PLAYING:
        services.game_submit_action(game_id=game.pk, user=me, action=_first_legal(game, leader), seq=game.seq)
        game.refresh_from_db()
        assert game.autopilot[leader] is False and game.timeouts[leader] == 0


@pytest.mark.django_db(transaction=True)
def test_a_player_whose_socket_comes_takes_his_seat_back_from_the_autopilot(
    no_tasks: list[tuple[str, tuple[object, ...]]],
) -> None:
    # Issue 36: a player let in late by a slow server (the first turns timed out before his socket was
    # counted) must not find the autopilot answering every view before him, each of his moves refused as stale.
    from games.services.actions import _apply_bot_action
    from games.turns import default_action

    anna, boris = person(), person()
    heads_up = table(anna)
    services.table_join(table=heads_up, user=anna)
    services.table_join(table=heads_up, user=boris)
    game = latest_game(heads_up)
    while not any(game.autopilot):
        services.game_timeout(game_id=game.pk, seq=game.seq)
        game.refresh_from_db()
    seat = game.autopilot.index(True)
    while seat not in waiting_seats(state_of(game)):
        services.game_submit_action(game_id=game.pk, user=[anna, boris][1 - seat],
                                    action=_first_legal(game, 1 - seat), seq=game.seq)  # fmt: skip
        game.refresh_from_db()
    assert game.status == GameStatus.PLAYING and game.autopilot[seat]
    autopilot_move = default_action(state_of(game), seat)  # the autopilot thinks about its move meanwhile

    assert services.seat_connected(game=game, user=[anna, boris][seat], change=+1) == seat
    game.refresh_from_db()
    assert game.autopilot[seat] is False and game.timeouts[seat] == 0
    # The autopilot's move that was on its way plays nothing: the turn is his.
    assert _apply_bot_action(game_id=game.pk, seq=game.seq, seat=seat, action=autopilot_move, by_autopilot=True) is None
    assert Game.objects.get(pk=game.pk).seq == game.seq
    # A socket that goes, or one of a seat the autopilot does not play, changes nothing of the kind.
    services.seat_connected(game=game, user=[anna, boris][seat], change=-1)
    game.refresh_from_db()
    assert game.autopilot == [False, False]


def _name(card: int) -> str:
    from games.engine.cards import card_name

    return card_name(card)


@pytest.mark.django_db
def test_bots_fill_seats_and_play_a_game_to_the_end(no_tasks: list[tuple[str, tuple[object, ...]]]) -> None:
    anna = person()
    bots_table = table(anna, seats=4, rules={"preset": "perevodnoy"}, stake=10)
    services.table_join(table=bots_table, user=anna)
    services.table_fill_bots(table=bots_table, level="easy")
    game = latest_game(bots_table)
    assert all(seat.is_bot for seat in Seat.objects.filter(table=bots_table, number__gt=0))
    for _ in range(3000):
        game.refresh_from_db()
        if game.status == GameStatus.FINISHED:
            break
        waiting = waiting_seats(state_of(game))
        if 0 in waiting:
            services.game_submit_action(game_id=game.pk, user=anna, action=_first_legal(game, 0), seq=game.seq)
        else:
            assert services.game_bot_move(game_id=game.pk, seq=game.seq) is not None
    assert game.status == GameStatus.FINISHED
    result = services.game_finalise(game_id=game.pk)
    # A bank of 4 x 10 shared by three winners: 13 each, the chip left over to the first out.
    if result.outcome == "draw":
        assert result.chips == [0, 0, 0, 0]
    else:
        assert result.chips[result.durak] == -10 and result.chips[result.out_order[0]] == 4
        assert sorted(result.chips) == [-10, 3, 3, 4]
    # One stake row and one settlement row for the person, their sum her net.
    rows = list(LedgerEntry.objects.filter(game=game, user=anna).values_list("kind", "amount"))
    settled_kind = LedgerKind.REFUND if result.outcome == "draw" else LedgerKind.BANK_SHARE
    expected_rows = [(LedgerKind.STAKE, -10)] + ([(settled_kind, 10 + result.chips[0])] if 10 + result.chips[0] else [])
    assert sorted(rows) == sorted(expected_rows)


@pytest.mark.django_db
def test_a_heads_up_bot_reads_the_other_player_s_moves_since_the_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The service hands the bot the game as dealt, so its observation holds every move of the game, the
    person's among them, as evidence (games.bots.knowledge.GameMemory); the steps show her seen cards only."""
    import games.bots as bots

    observed: list[Any] = []
    real = bots.policy_for_level

    def spying(level: str) -> Any:
        choose = real(level)

        def policy(observation: Any, rng: Any) -> Any:
            observed.append(observation)
            return choose(observation, rng)

        return policy

    monkeypatch.setattr(bots, "policy_for_level", spying)
    anna = person()
    duel = table(anna, seats=2, rules={"preset": "podkidnoy"}, stake=10)
    services.table_join(table=duel, user=anna)
    services.table_add_bot(table=duel, level="hard")
    game = latest_game(duel)
    for _ in range(200):
        game.refresh_from_db()
        state = state_of(game)
        if observed and any(step.seat == 0 for step in observed[-1].history) or game.status != GameStatus.PLAYING:
            break
        if 0 in waiting_seats(state):
            services.game_submit_action(game_id=game.pk, user=anna, action=_first_legal(game, 0), seq=game.seq)
        else:
            assert services.game_bot_move(game_id=game.pk, seq=game.seq) is not None
    observation = observed[-1]
    assert any(step.seat == 0 for step in observation.history)
    assert [(step.seat, step.action.to_json()) for step in observation.history] == [
        (entry["seat"], {key: value for key, value in entry.items() if key != "seat"})
        for entry in game.record["actions"][:len(observation.history)]]
    public = seen_in_log(game.record["actions"]) | 1 << state.trump_card
    for step in observation.history:
        # Her cards in the history are only those that lay face up before: never the rest of her hand.
        assert step.public.hands[0] & ~public == 0 and step.public.stock == []


@pytest.mark.django_db
def test_surrender_makes_him_the_durak() -> None:
    anna, boris, vera = person(), person(), person()
    three = table(anna, seats=3, stake=30)
    for one in (anna, boris, vera):
        services.table_join(table=three, user=one)
    game = latest_game(three)
    with pytest.raises(GameActionError):
        services.game_surrender(game_id=game.pk, user=person())
    services.game_surrender(game_id=game.pk, user=boris, seq=0)
    result = services.game_finalise(game_id=game.pk)
    assert (result.outcome, result.durak, result.surrendered) == ("durak", 1, 1)
    assert result.places[-1] == [1] and sorted(result.places[0]) == [0, 2]
    assert result.chips == [15, -30, 15]
    assert ledger_balance(user=boris) == STARTING_GRANT - 30
    with pytest.raises(GameActionError) as caught:
        services.game_submit_action(game_id=game.pk, user=anna, action={"type": "take"}, seq=game.seq + 1)
    assert caught.value.code == "finished"


@pytest.mark.django_db
def test_a_surrender_is_the_records_last_action_and_old_games_get_it() -> None:
    """The surrender is an engine action: the record ends with it, the log has its row, the version is the
    actions' count, and the stored record replays to the result. Migration 0008 gives a game surrendered before
    it (no action, the version bumped alone) the same."""
    anna, boris = person(), person()
    two = table(anna, seats=2, stake=10)
    for one in (anna, boris):
        services.table_join(table=two, user=one)
    game = latest_game(two)
    services.game_surrender(game_id=game.pk, user=anna, seq=0)
    game.refresh_from_db()
    assert game.record["actions"] == [{"seat": 0, "type": "surrender"}] and game.seq == 1 and game.surrendered == 0
    assert list(ActionLog.objects.filter(game=game).values_list("seq", "seat", "action")) == [
        (0, 0, {"type": "surrender"})
    ]
    replayed = replay_record(load_record(game_record_json(game=game)))
    assert replayed.state is not None and replayed.state.result is not None and replayed.state.result.durak == 0
    assert state_of(game).finished
    # As a game surrendered before the migration was stored.
    Game.objects.filter(pk=game.pk).update(record={**game.record, "actions": []})
    ActionLog.objects.filter(game=game).delete()
    migration = importlib.import_module("games.migrations.0008_surrender_action")
    migration.add_surrender_actions(django_apps, None)
    migration.add_surrender_actions(django_apps, None)  # twice changes nothing more
    game.refresh_from_db()
    assert game.record["actions"] == [{"seat": 0, "type": "surrender"}]
    assert list(ActionLog.objects.filter(game=game).values_list("seq", "seat", "action")) == [
        (0, 0, {"type": "surrender"})
    ]


@pytest.mark.django_db
def test_rules_of_the_table_reach_the_engine() -> None:
    anna, boris = person(), person()
    transfer = table(anna, rules={"preset": "perevodnoy", "transfer_by_showing_trump": True, "deck": 24})
    services.table_join(table=transfer, user=anna)
    services.table_join(table=transfer, user=boris)
    state = state_of(latest_game(transfer))
    assert state.rules == Rules(deck=24, transfer=True, transfer_by_showing_trump=True)


@pytest.mark.django_db
@override_settings(LANGUAGE_CODE="en")
def test_log_lines_in_english_and_russian() -> None:
    from games.selectors import game_log_lines

    anna, boris = person("anna"), person("boris")
    heads_up = table(anna)
    services.table_join(table=heads_up, user=anna)
    services.table_join(table=heads_up, user=boris)
    game = latest_game(heads_up)
    services.game_timeout(game_id=game.pk, seq=0)
    game.refresh_from_db()
    english = game_log_lines(game=game, language="en")[0]["text"]
    russian = game_log_lines(game=game, language="ru")[0]["text"]
    assert "leads" in english and "time ran out" in english
    assert "ходит" in russian and "время" in russian


@pytest.mark.django_db
def test_a_batch_of_table_changes_sends_the_lobby_once(django_capture_on_commit_callbacks: Any) -> None:
    """A tournament round deals its games in one batch: one lobby message after the commit, not one a table."""
    owner = person()
    with django_capture_on_commit_callbacks() as callbacks:
        with services.lobby_batch():
            for _ in range(3):
                table(owner)
            with services.lobby_batch():  # nested: still the outer batch's one message
                table(owner)
    assert callbacks.count(services.send_lobby) == 1
    with django_capture_on_commit_callbacks() as callbacks:
        table(owner)
        table(owner)
    assert callbacks.count(services.send_lobby) == 2
    with django_capture_on_commit_callbacks() as callbacks, services.lobby_batch():
        pass
    assert callbacks.count(services.send_lobby) == 0


@pytest.mark.django_db
def test_a_played_games_seats_are_read_again_only_when_their_sockets_change(
    django_assert_num_queries: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from games.selectors import game_seats

    anna, boris = person(), person()
    heads_up = table(anna)
    services.table_join(table=heads_up, user=anna)
    services.table_join(table=heads_up, user=boris)
    game = latest_game(heads_up)
    assert [seat.connections for seat in game_seats(game)] == [0, 0]
    again = Game.objects.get(pk=game.pk)
    with django_assert_num_queries(0):  # the same version: the seats read above
        assert [seat.user_id for seat in game_seats(again)] == [anna.pk, boris.pk]
    with django_capture_on_commit_callbacks(execute=False):
        services.seat_connected(game=game, user=boris, change=+1)
    fresh = Game.objects.get(pk=game.pk)
    assert fresh.seats_version == game.seats_version + 1
    assert [seat.connections for seat in game_seats(fresh)] == [0, 1]
    leader = waiting_seats(state_of(fresh))[0]
    services.game_submit_action(
        game_id=game.pk, user=[anna, boris][leader], action=_first_legal(fresh, leader), seq=fresh.seq
    )
    view = game_view_for(game=Game.objects.get(pk=game.pk), user=anna)
    assert [player["connected"] for player in view["players"]] == [False, True]
    # A finished game's seats are always read from the database.
    finished = _play_out(Game.objects.get(pk=game.pk))
    with django_assert_num_queries(1):
        game_seats(finished)


@pytest.mark.django_db(transaction=True)
def test_a_timer_that_plays_for_several_seats_writes_each_move_with_the_game() -> None:
    """A timer may play for several seats at once (both throwers pass after a take): the game's row and
    one log row a move are written together, and the stored record replays to the state the game is in."""
    players = [person(), person(), person()]
    three = table(players[0], seats=3)
    for player in players:
        services.table_join(table=three, user=player)
    game = latest_game(three)
    services.game_timeout(game_id=game.pk, seq=0)  # the leader leads his lowest card
    services.game_timeout(game_id=game.pk, seq=1)  # the defender takes
    game.refresh_from_db()
    throwers = waiting_seats(state_of(game))
    assert len(throwers) == 2

    services.game_timeout(game_id=game.pk, seq=2)  # both throwers pass
    game.refresh_from_db()
    logged = list(ActionLog.objects.filter(game=game).order_by("seq"))
    assert [(row.seq, row.by_timer) for row in logged] == [(0, True), (1, True), (2, True), (3, True)]
    assert sorted(row.seat for row in logged[2:]) == sorted(throwers)
    assert [row.action["type"] for row in logged[1:]] == ["take", "pass", "pass"]
    assert game.seq == 4 and game.status == GameStatus.PLAYING and game.deadline is not None
    assert [{"seat": row.seat, **row.action, "timer": True} for row in logged] == game.record["actions"]
    assert game.timeouts == [sum(row.seat == seat for row in logged) for seat in range(3)]
    actions = [{key: value for key, value in raw.items() if key != "timer"} for raw in game.record["actions"]]
    replayed = replay_record(load_record({**game.record, "actions": actions}))
    assert replayed.ok and replayed.state is not None
    assert replayed.state.to_json() == state_of(game).to_json()


@pytest.mark.django_db(transaction=True)
def test_each_version_s_log_in_words_is_the_whole_log_put_in_words_afresh() -> None:
    """The views' log is put in words a version at a time, reusing the lines of the game's previous version
    in this process (and unpacked from the group event's blob): each version's log must be the same as
    putting its entries in words from nothing, in both languages, up to a surrender."""
    from games import broadcast, selectors
    from games.logtext import log_lines

    anna, boris = person(), person()
    heads_up = table(anna)
    services.table_join(table=heads_up, user=anna)
    services.table_join(table=heads_up, user=boris)
    game = latest_game(heads_up)
    selectors._logs.clear()
    checked = 0
    for step in range(70):
        game.refresh_from_db()
        if step == 60:
            services.game_surrender(game_id=game.pk, user=anna, seq=game.seq)
            game.refresh_from_db()
        seats = selectors.game_seats(game)
        event = broadcast.game_event(game=game, seats=seats, state=state_of(game), result=None)
        assert isinstance(event["common"]["log_entries"], bytes)
        for language in ("ru", "en"):
            for seat in (0, 1, None):
                payload = broadcast.view_in_event(event, seat)
                message = selectors.message_in_language(payload, language)
                entries = selectors.log_entries_of(payload)
                assert message["log"] == log_lines(entries, payload["names"], language)
                assert "log_entries" not in message and "names" not in message
                checked += 1
        if game.status != GameStatus.PLAYING:
            break
        services.game_timeout(game_id=game.pk, seq=game.seq)
    assert checked >= 6 * 30
    final = selectors.message_in_language(payload, "en")["log"]
    assert final[-1]["text"].endswith("surrenders") and len(final) == selectors.LOG_LINES  # the window slid
