"""The game review (games.bots.review): a decision is judged from its seat's information only, a thrown-away
proven win is a blunder, and an analysis is reproducible, round-trips through JSON and refuses what it does
not cover."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

from games.bots import BOTS
from games.bots import review
from games.bots.endgame import NOT_LOSE, WIN, exact_endgame, prove
from games.bots.knowledge import GameMemory, GameStep, observe
from games.bots.review import JudgedDecision, analysable, analyse_record, analysis_from_json, judge
from games.bots.search import durak_rewards
from games.engine import Action, Rules, State, actors, legal_actions, play
from games.engine.deal import deal
from games.engine.records import Record
from tests.games.bots.variants import shuffle_hidden

SHUFFLES = 3
ALL_CARDS = (1 << 54) - 1


@pytest.fixture(autouse=True)
def small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Budgets of a hundredth of a second's iterations (100) and half that: the tests check what is judged from
    what, not how well."""
    monkeypatch.setitem(review.BUDGETS, "test", 0.01)
    monkeypatch.setitem(review.BUDGETS, "tiny", 0.005)


def heuristic_game(rules: Rules, players: int, seed: str) -> Iterator[tuple[State, int, Action, int, list[GameStep]]]:
    """Every action of a game the heuristic plays against itself: the state before it, the seat, the action, the
    cards seen so far and the game's public steps (as a live table's service has them)."""
    state = deal(rules, players, seed=seed, salt="salt").state()
    rng = random.Random(seed)
    seen, memory = 0, GameMemory()
    while not state.finished:
        seats = actors(state)
        seat = seats[int(rng.random() * len(seats))]
        action = BOTS["heuristic"](observe(state, seat, seen, memory.history), rng)
        yield state.copy(), seat, action, seen, list(memory.history)
        memory.remember(state, seat, action, seen)
        play(state, seat, action)
        seen |= action.cards


def record_of(rules: Rules, players: int, seed: str, actions: Sequence[tuple[int, Action]] | None = None) -> dict[str, Any]:
    """The record of the deal ``seed`` with ``actions`` (by default the heuristic's game against itself)."""
    dealt = deal(rules, players, seed=seed, salt="salt")
    if actions is None:
        actions = [(seat, action) for _state, seat, action, _seen, _history in heuristic_game(rules, players, seed)]
    return Record(rules=rules, hands=dealt.hands, stock=dealt.stock, trump=dealt.trump, actions=list(actions)).to_json()


Evaluate = Callable[[State, int, int, Sequence[GameStep], Action], JudgedDecision]


def judged_alike(evaluate: Evaluate, rules: Rules, players: int, seed: str, every: int) -> int:
    """Every ``every``-th decision of a game, evaluated again with the cards its seat could not see dealt otherwise
    among their possible places: the same moves and chances. Returns how many shuffles moved a hidden card."""
    rng = random.Random(7)
    moved = 0
    for index, (state, seat, action, seen, history) in enumerate(heuristic_game(rules, players, seed)):
        if index % every or len(legal_actions(state, seat)) < 2:
            continue
        judged = evaluate(state, seat, seen, history, action).to_json()
        for _ in range(SHUFFLES):
            shuffled = shuffle_hidden(state, seat, seen, rng)
            moved += shuffled.hands != state.hands or shuffled.stock != state.stock
            assert evaluate(shuffled, seat, seen, history, action).to_json() == judged
    return moved


def honest(state: State, seat: int, seen: int, history: Sequence[GameStep], action: Action) -> JudgedDecision:
    return judge(state, seat, seen, history, action, ply=0, budget="tiny", seed=3)


@pytest.mark.parametrize(("rules", "players"), [(Rules(), 2), (Rules(transfer=True), 3)], ids=["2p", "3p-transfer"])
def test_a_decision_is_judged_from_its_seats_information_only(rules: Rules, players: int) -> None:
    """Heads-up with the game's steps as evidence (the search's posterior reads them), and at three seats."""
    assert judged_alike(honest, rules, players, f"review-{players}", every=5) > 0


def test_an_evaluator_that_peeks_is_caught() -> None:
    """The check can fail: an evaluator given every card as seen (the true hands) judges otherwise when they move."""
    def peeking(state: State, seat: int, seen: int, history: Sequence[GameStep], action: Action) -> JudgedDecision:
        return judge(state, seat, ALL_CARDS, history, action, ply=0, budget="tiny", seed=3)

    with pytest.raises(AssertionError):
        judged_alike(peeking, Rules(), 2, "review-2", every=5)


def thrown_win(positions: int) -> tuple[str, list[tuple[int, Action]], int, set[Action]]:
    """A heads-up game in which, at an endgame position the solver proves won, a move that loses was played
    (the heuristic plays the rest): the deal's seed, the actions, the ply of that move and the position's
    winning moves. Each proof within ``positions``."""
    for game in range(40):
        seed = f"blunder-{game}"
        state = deal(Rules(), 2, seed=seed, salt="salt").state()
        rng = random.Random(game)
        seen, memory = 0, GameMemory()
        actions: list[tuple[int, Action]] = []
        thrown = -1
        winning: set[Action] = set()
        while not state.finished:
            seats = actors(state)
            seat = seats[int(rng.random() * len(seats))]
            action = BOTS["heuristic"](observe(state, seat, seen, memory.history), rng)
            legal = legal_actions(state, seat)
            if thrown < 0 and exact_endgame(state, 1) and len(legal) > 1:
                wins = {move for move in legal if prove(state, seat, [move], positions, WIN).move is not None}
                lost = [move for move in legal if move not in wins
                        and prove(state, seat, [move], positions, NOT_LOSE).complete
                        and prove(state, seat, [move], positions, NOT_LOSE).move is None]
                if wins and lost:
                    thrown, winning, action = len(actions), wins, lost[0]
            memory.remember(state, seat, action, seen)
            play(state, seat, action)
            seen |= action.cards
            actions.append((seat, action))
        if thrown >= 0:
            return seed, actions, thrown, winning
    raise AssertionError("no thrown win in 40 games")


def test_a_thrown_away_proven_win_is_a_blunder() -> None:
    """The played move loses against every defence where a move proven to win was there: a blunder, solved, the
    winning move as best; and no forced decision of the game is marked."""
    seed, actions, ply, winning = thrown_win(int(review.BUDGETS["test"] * review.ENDGAME_POSITIONS_PER_SECOND) // 4)
    analysis = analyse_record(record_of(Rules(), 2, seed, actions), budget="test", seed=1)
    decision = analysis.decisions[ply]
    assert decision.solved and decision.mark == "blunder"
    assert decision.after == 0.0 and decision.best_after == 1.0 and decision.before == 1.0
    assert decision.played == {"seat": decision.seat, **actions[ply][1].to_json()}
    assert any({"seat": decision.seat, **move.to_json()} == decision.best for move in winning)
    forced = [other for other in analysis.decisions if other.forced]
    assert forced
    for other in forced:
        assert other.mark is None and other.played == other.best
        assert other.before == other.after == other.best_after


def test_a_forced_move_is_never_marked() -> None:
    """Whatever chances a forced decision carries, it gives nothing away."""
    played = {"seat": 0, "type": "take"}
    forced = JudgedDecision(ply=3, seat=0, played=played, best=played, before=0.9, after=0.1, best_after=0.9,
                      forced=True, solved=False)
    assert forced.mark is None and forced.given_away == 0.0
    assert JudgedDecision(**{**forced.__dict__, "forced": False}).mark == "blunder"


def test_an_analysis_is_reproducible_and_round_trips() -> None:
    record = record_of(Rules(), 2, "review-determinism")
    calls: list[tuple[int, int]] = []
    first = analyse_record(record, budget="test", seed=5, progress=lambda done, total: calls.append((done, total)))
    total = len(record["actions"])
    assert calls == [(done, total) for done in range(1, total + 1)]
    assert analyse_record(record, budget="test", seed=5).to_json() == first.to_json()
    assert analysis_from_json(first.to_json()).to_json() == first.to_json()
    data = first.to_json()
    assert len(data["decisions"]) == total and all(value is not None for value in data["accuracy"])
    assert [item["played"] for item in data["decisions"]] == record["actions"]
    for item in data["decisions"]:
        assert 0.0 <= item["after"] <= item["best_after"] + 0.2 and 0.0 <= item["best_after"] <= 1.0
        assert item["before"] == item["best_after"]
    assert any(not item["forced"] for item in data["decisions"]) and any(item["forced"] for item in data["decisions"])


def test_three_players_are_analysed() -> None:
    record = record_of(Rules(transfer=True), 3, "review-three")
    analysis = analyse_record(record, budget="tiny", seed=2)
    assert analysis.players == 3 and len(analysis.decisions) == len(record["actions"])
    assert all(0.0 <= decision.after <= 1.0 and not decision.solved for decision in analysis.decisions)


def test_durak_rewards_count_only_the_durak() -> None:
    """At three or more seats the review's chance is of not being the durak: the first and second out alike."""
    state = deal(Rules(), 3, seed="rewards", salt="salt").state()
    rng = random.Random(1)
    seen = 0
    while not state.finished:
        seat = actors(state)[0]
        action = BOTS["heuristic"](observe(state, seat, seen), rng)
        play(state, seat, action)
        seen |= action.cards
    assert state.result is not None and state.result.durak is not None
    values = durak_rewards(state)
    assert values[state.result.durak] == 0.0 and sorted(values) == [0.0, 1.0, 1.0]


@pytest.mark.parametrize("broken", ["not a record", {"players": "two"}, {"players": 2, "hands": [["6S"], ["7S"]]}])
def test_a_malformed_record_is_refused(broken: object) -> None:
    with pytest.raises(ValueError, match="malformed record"):
        analyse_record(broken, budget="test")  # type: ignore[arg-type]


def test_an_illegal_or_unfinished_game_is_refused() -> None:
    record = record_of(Rules(), 2, "review-refused")
    with pytest.raises(ValueError, match="not over"):
        analyse_record({**record, "actions": record["actions"][:-3]}, budget="test")
    # A game that ended otherwise (a surrender, a flag, a director's decision): the decisions made are judged.
    early = analyse_record({**record, "actions": record["actions"][:-3]}, budget="test", ended_early=True)
    assert [decision.ply for decision in early.decisions] == list(range(len(record["actions"]) - 3))
    swapped = [{**action, "seat": 1 - action["seat"]} if index == 0 else action
               for index, action in enumerate(record["actions"])]
    with pytest.raises(ValueError, match="malformed record: action 0"):
        analyse_record({**record, "actions": swapped}, budget="test")
    with pytest.raises(ValueError, match="unknown budget"):
        analyse_record(record, budget="forever")


@pytest.mark.parametrize(("rules", "players", "covered"), [
    ({}, 2, True), ({"preset": "perevodnoy"}, 4, True), ({"deck": 52}, 6, True), ({"teams": "2v2"}, 4, True),
    ({}, 7, False), ({"cheating": True}, 2, False), ({"preset": "aktobe"}, 2, False), ({"no such": 1}, 2, False),
])
def test_what_is_analysable(rules: dict[str, Any], players: int, covered: bool) -> None:
    assert analysable(rules, players) is covered


def test_a_cheating_or_aktobe_record_is_refused() -> None:
    for rules in (Rules(cheating=True), Rules.from_dict({"preset": "aktobe"})):
        dealt = deal(rules, 2, seed="refused", salt="salt")
        record = Record(rules=rules, hands=dealt.hands, stock=dealt.stock, trump=dealt.trump,
                        hidden=dealt.hidden, hidden_trump=dealt.hidden_trump).to_json()
        with pytest.raises(ValueError, match="cannot be analysed"):
            analyse_record(record, budget="test")
