"""Every bot and every level plays complete games of every variant with legal moves only; at cheating tables
the bots accuse every card they can tell was illegal and never cheat themselves."""

from __future__ import annotations

import gc
import random
import time

import pytest

from games.bots import BOTS, LEVELS, POLICIES, get_policy, heuristic, policy_for_level
from games.bots.arena import play_game
from games.bots.heuristic import caught_cards, honest
from games.bots.knowledge import ObservationPolicy, observe, seen_in_log
from games.bots.search import Node, SearchBot, candidate_actions, honest_actors, playout, tree_moves
from games.engine import Action, Rules, State, actors, legal_actions, play
from games.engine.actions import ACCUSE, COVER
from games.engine.rules import preset_rules
from games.engine.simulate import simulate
from tests.games.bots.test_strength import endgames
from tests.games.bots.variants import VARIANTS, new_state, variant_id

# A search with a small cap, so that a test plays whole games with it quickly.
SMALL_SEARCH = SearchBot(seconds=60.0, iterations=12)


def bots_under_test() -> dict[str, ObservationPolicy]:
    return {"random": BOTS["random"], "easy": BOTS["easy"], "heuristic": BOTS["heuristic"], "search": SMALL_SEARCH}


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
@pytest.mark.parametrize("name", ["random", "easy", "heuristic", "search"])
def test_bot_plays_complete_games_with_legal_moves(name: str, variant: tuple[Rules, int]) -> None:
    """The bot under test sits at seat 0 (and every other seat for the fast bots; with the search, the
    others play the heuristic); arena.play_game applies each move with the engine's validating play()."""
    rules, players = variant
    bot = bots_under_test()[name]
    others = bot if name != "search" else BOTS["heuristic"]
    state = new_state(rules, players, f"play-{name}-{variant_id(variant)}")
    record = play_game(state, [bot] + [others] * (players - 1), random.Random(7))
    assert state.finished
    assert record.decisions[0] > 0


@pytest.mark.parametrize("variant", [variant for variant in VARIANTS if variant[0].cheating], ids=variant_id)
@pytest.mark.parametrize("name", ["easy", "heuristic", "search"])
def test_bots_catch_every_illegal_card_and_never_cheat(name: str, variant: tuple[Rules, int]) -> None:
    rules, players = variant
    bot = bots_under_test()[name]
    checked = caught = 0
    for game in range(3):
        state = new_state(rules, players, f"cheat-{name}-{game}")
        rng = random.Random(game)
        log: list[tuple[int, Action]] = []
        while not state.finished:
            seats = actors(state)
            seat = seats[int(rng.random() * len(seats))]
            observation = observe(state, seat, seen_in_log(log))
            if seat == 0:
                action = bot(observation, rng)
                catchable = caught_cards(state, 0)
                honest_moves = [move for move in legal_actions(state, 0) if move.kind != ACCUSE and honest(state, move)]
                if catchable:
                    assert action.kind == ACCUSE and action.cards & catchable
                    caught += 1
                elif honest_moves:
                    assert action.kind != ACCUSE and honest(state, action)
                checked += 1
            else:
                action = BOTS["random"](observation, rng)
            play(state, seat, action)
            log.append((seat, action))
    assert checked > 20
    assert caught > 0  # the random players cheat often enough that the bot had cards to catch


@pytest.mark.parametrize("variant", [VARIANTS[0], VARIANTS[4], VARIANTS[7], VARIANTS[9]], ids=variant_id)
def test_registry_policies_play_through_the_engine_harness(variant: tuple[Rules, int]) -> None:
    """manage.py simulate calls POLICIES by name as (state, seat, rng): the adapter builds the observation."""
    rules, players = variant
    names = ["heuristic", "easy", "random", "medium", "heuristic", "easy"][:players]
    result = simulate(rules, players, names, [get_policy(name) for name in names], 3, "registry")
    assert result.games == 3 and result.unfinished == 0


def test_levels_are_registered_and_ordered() -> None:
    assert list(LEVELS) == ["easy", "medium", "hard", "expert"]
    for level in LEVELS:
        assert policy_for_level(level) is BOTS[level]
        assert level in POLICIES
    hard, expert = policy_for_level("hard"), policy_for_level("expert")
    assert isinstance(hard, SearchBot) and isinstance(expert, SearchBot)
    assert hard.seconds < expert.seconds <= 1.0
    # A busy server slows a search in wall-clock time; the cap keeps a bot's answer prompt at the table.
    assert hard.wall_seconds is not None and expert.wall_seconds is not None
    assert hard.seconds <= hard.wall_seconds < expert.wall_seconds <= 3.0
    assert policy_for_level("medium") is BOTS["heuristic"]
    with pytest.raises(ValueError):
        policy_for_level("grandmaster")
    with pytest.raises(ValueError):
        get_policy("grandmaster")


def test_the_search_stops_at_its_wall_clock_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """With CPU time and iterations to spare, the wall-clock cap ends the search. The wall clock is a fake that
    moves 10 ms each time it is read, so the verdict does not hang on how busy the machine is: a search that
    ignored its cap would run its 60 CPU seconds or 10**9 iterations."""
    state = new_state(Rules(), 2, "wall-clock")
    seat = actors(state)[0]
    bot = SearchBot(seconds=60.0, iterations=10**9, wall_seconds=0.05)
    reads = [0]

    def fake_wall_clock() -> float:
        reads[0] += 1
        return reads[0] * 0.01

    monkeypatch.setattr(time, "perf_counter", fake_wall_clock)
    cpu_started = time.process_time()
    action = bot(observe(state, seat, 0), random.Random(3))
    cpu_spent = time.process_time() - cpu_started
    monkeypatch.undo()
    assert 0 < reads[0] <= 20  # stopped within the cap's 5 reads and its margins
    assert 0 < bot.last_iterations < 20 and cpu_spent < 30
    assert action in legal_actions(state, seat)


def test_a_search_given_its_deals_searches_those_and_no_others() -> None:
    """bench/search_probe.py's clairvoyant arm: with ``deal`` every iteration searches a deal it draws."""
    state = new_state(Rules(), 2, "given-deals")
    seat = actors(state)[0]
    drawn: list[int] = []

    def deal(_rng: random.Random) -> State:
        drawn.append(1)
        return state.copy()

    bot = SearchBot(seconds=60.0, iterations=40)
    action = bot(observe(state, seat, 0), random.Random(4), deal=deal)
    assert action in legal_actions(state, seat)
    assert len(drawn) == bot.last_iterations > 0


def _visits(node: Node, seat: int, mine: bool) -> list[int]:
    """The visits of ``node``'s children where ``seat`` moved (``mine``) or another seat did."""
    return [child.visits for key, child in node.children.items() if (key[0] == seat) == mine]


def test_the_other_seats_choose_in_the_tree_with_their_own_constant() -> None:
    """``others_exploration`` is UCB1's constant where another seat chooses, ``exploration`` where the bot does.
    In an endgame every card is known, so each node offers the same moves in every iteration: a huge constant
    spreads a node's visits evenly (within two: a move added later has been available fewer times), a constant
    of 0 keeps choosing the best."""
    checked = 0
    for position, log in endgames(6, "ucb-constants"):
        seat = actors(position)[0]
        observation = observe(position, seat, seen_in_log(log))
        moves = tree_moves(observation.filled(), seat, [observation.possible(other) for other in range(2)])
        greedy_others = SearchBot(seconds=60.0, iterations=400, exploration=100.0, others_exploration=0.0)
        root = greedy_others.search(observation, moves, random.Random(1))
        reply = max(root.children.values(), key=lambda child: child.visits)
        spread_others = SearchBot(seconds=60.0, iterations=400, exploration=0.0, others_exploration=100.0)
        other_root = spread_others.search(observation, moves, random.Random(1))
        other_reply = max(other_root.children.values(), key=lambda child: child.visits)
        if len(_visits(reply, seat, False)) < 2 or len(_visits(other_reply, seat, False)) < 2:
            continue  # the other seat had one move there: nothing to choose
        checked += 1
        mine = _visits(root, seat, True)
        assert max(mine) - min(mine) <= 2  # the bot's own constant, 100: even
        theirs = _visits(reply, seat, False)
        assert max(theirs) >= 0.8 * sum(theirs)  # the other seat's, 0: the best reply nearly always
        spread = _visits(other_reply, seat, False)
        assert max(spread) - min(spread) <= 2  # the other seat's, 100: even
    assert checked >= 3


def _heuristic_game(state: State, rng: random.Random) -> tuple[object, ...]:
    """Every seat plays the heuristic with full sight, the acting seat drawn as ``playout`` draws it."""
    while not state.finished:
        seats = actors(state)
        seat = seats[0] if len(seats) == 1 else seats[int(rng.random() * len(seats))]
        play(state, seat, heuristic.decide(state, seat, state.hands))
    return state.result, state.out, state.discard, tuple(state.hands)


def test_playouts_play_the_heuristic_unless_told_to_play_at_random() -> None:
    """``epsilon`` (bench/search_probe.py --epsilon): 0 plays the heuristic's game, 1 plays another."""
    dealt = new_state(Rules(), 2, "playout-epsilon")
    expected = _heuristic_game(dealt.copy(), random.Random(5))
    for epsilon, same in ((0.0, True), (1.0, False)):
        state = dealt.copy()
        playout(state, random.Random(5), epsilon)
        assert state.finished
        assert ((state.result, state.out, state.discard, tuple(state.hands)) == expected) is same


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_the_search_considers_only_legal_moves(variant: tuple[Rules, int]) -> None:
    """The tree's moves (``tree_moves``: the reduced set and the heuristic's own move) are legal and honest."""
    rules, players = variant
    state = new_state(rules, players, f"moves-{variant_id(variant)}")
    rng = random.Random(2)
    while not state.finished:
        seats = honest_actors(state)
        assert set(seats) <= set(actors(state))
        for seat in seats:
            moves = tree_moves(state, seat, state.hands)
            legal = legal_actions(state, seat)
            assert moves and all(move in legal and honest(state, move) for move in moves)
            assert set(candidate_actions(state, seat)) <= set(moves)
            if not (state.special and state.owed):
                assert heuristic.decide(state, seat, state.hands) in moves
        seat = seats[int(rng.random() * len(seats))]
        moves = candidate_actions(state, seat)
        play(state, seat, moves[int(rng.random() * len(moves))])


def test_the_reduced_move_set_alone_misses_heuristic_covers() -> None:
    """Why ``tree_moves`` adds the heuristic's move: in heads-up podkidnoy the heuristic often covers with a card
    that is neither the cheapest plain nor the cheapest trump beater, a move ``candidate_actions`` leaves out."""
    covers = missed = 0
    for game in range(5):
        state = new_state(Rules(), 2, f"missed-covers-{game}")
        rng = random.Random(game)
        while not state.finished:
            seats = actors(state)
            seat = seats[int(rng.random() * len(seats))]
            usual = heuristic.decide(state, seat, state.hands)
            if usual.kind == COVER:
                covers += 1
                missed += usual not in candidate_actions(state, seat)
                assert usual in tree_moves(state, seat, state.hands)
            play(state, seat, usual)
    assert covers > 50 and missed > 0


@pytest.mark.parametrize("variant", [(Rules(), 2), (preset_rules("perevodnoy"), 4)], ids=["podkidnoy-2", "perevodnoy-4"])
def test_no_move_of_the_search_overruns_its_cpu_budget(variant: tuple[Rules, int]) -> None:
    """The budget is the whole move's, the endgame solver's and the evidence's share included: every move of a
    whole game, against the heuristic, keeps to it in CPU time."""
    rules, players = variant
    budget = 0.05
    bot = SearchBot(seconds=budget, iterations=10**9)
    seats = range(players)
    record = play_game(new_state(rules, players, "cpu-budget"),
                       [bot if seat % 2 == 0 else BOTS["heuristic"] for seat in seats], random.Random(5))
    assert sum(record.decisions[seat] for seat in seats if seat % 2 == 0) > 20
    assert max(record.longest[seat] for seat in seats if seat % 2 == 0) <= budget, record.longest


def test_the_search_leaves_the_garbage_collector_as_it_found_it() -> None:
    """The collector waits while a search moves (a full collection can take longer than a move's budget), and is
    back on after it; one the process had switched off stays off."""
    state = new_state(Rules(), 2, "collector")
    seat = actors(state)[0]
    bot = SearchBot(seconds=60.0, iterations=50)
    paused: list[bool] = []

    def deal(_rng: random.Random) -> State:
        paused.append(not gc.isenabled())
        return state.copy()

    assert gc.isenabled()
    bot(observe(state, seat, 0), random.Random(6), deal=deal)
    assert paused and all(paused) and gc.isenabled()
    gc.disable()
    try:
        bot(observe(state, seat, 0), random.Random(6), deal=deal)
        assert not gc.isenabled()
    finally:
        gc.enable()
