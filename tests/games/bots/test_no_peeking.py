"""The bots do not peek: a bot's choice does not change when the cards its seat cannot see are dealt anew
among the places they could be (the other hands, each keeping its count and its known cards, and the stock
above the face-up card). A policy that does peek is caught by the same check."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from games.bots import BOTS, POLICIES
from games.bots.knowledge import game_in_log, observe, seen_in_log
from games.bots.search import SearchBot
from games.engine import Action, Rules, State, actors, legal_actions, play_trusted
from tests.games.bots.variants import VARIANTS, new_state, shuffle_hidden, variant_id

SHUFFLES = 4


def heuristic_positions(rules: Rules, players: int, seed: str, every: int) -> Iterator[tuple[State, int, list[tuple[int, Action]]]]:
    """Positions of a game the heuristic plays against itself, where the seat to act has a real choice."""
    state = new_state(rules, players, seed)
    rng = random.Random(seed)
    log: list[tuple[int, Action]] = []
    while not state.finished:
        seats = actors(state)
        seat = seats[int(rng.random() * len(seats))]
        if len(log) % every == every - 1 and len(legal_actions(state, seat)) > 1:
            yield state.copy(), seat, list(log)
        action = BOTS["heuristic"](observe(state, seat, seen_in_log(log)), rng)
        play_trusted(state, seat, action)
        log.append((seat, action))


def choice_is_stable(decide: Callable[[State, int, int], Action], variant: tuple[Rules, int], every: int) -> int:
    """Check every position of a game; returns how many shuffles moved a hidden card."""
    rules, players = variant
    rng = random.Random(11)
    moved = 0
    for state, seat, log in heuristic_positions(rules, players, f"peek-{variant_id(variant)}", every):
        seen = seen_in_log(log)
        choice = decide(state, seat, seen)
        for _ in range(SHUFFLES):
            shuffled = shuffle_hidden(state, seat, seen, rng)
            moved += shuffled.hands != state.hands or shuffled.stock != state.stock
            assert decide(shuffled, seat, seen) == choice
    return moved


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_the_heuristic_does_not_peek(variant: tuple[Rules, int]) -> None:
    def decide(state: State, seat: int, seen: int) -> Action:
        return BOTS["heuristic"](observe(state, seat, seen), random.Random(1))

    assert choice_is_stable(decide, variant, every=3) > 0


@pytest.mark.parametrize("variant", VARIANTS[:2] + VARIANTS[3:5] + VARIANTS[6:10], ids=variant_id)
def test_the_search_does_not_peek(variant: tuple[Rules, int]) -> None:
    """With a fixed seed and an iteration cap the search is reproducible, so it must choose the same."""
    search = SearchBot(seconds=60.0, iterations=40)

    def decide(state: State, seat: int, seen: int) -> Action:
        return search(observe(state, seat, seen), random.Random(1))

    assert choice_is_stable(decide, variant, every=9) > 0


@pytest.mark.parametrize("variant", [VARIANTS[0], VARIANTS[3], VARIANTS[11]], ids=variant_id)
def test_the_search_reading_the_game_as_evidence_does_not_peek(variant: tuple[Rules, int]) -> None:
    """Heads-up the search weighs its deals by the other player's moves in the bout and in the whole game:
    that evidence is read from the public course of the game, so the choice still does not change when the
    hidden cards move."""
    rules, players = variant
    seed = f"evidence-{variant_id(variant)}"
    dealt = new_state(rules, players, seed)
    search = SearchBot(seconds=60.0, iterations=40)
    rng = random.Random(11)
    moved = weighed = 0
    for state, seat, log in heuristic_positions(rules, players, seed, every=4):
        seen, memory = seen_in_log(log), game_in_log(dealt, log)
        observation = observe(state, seat, seen, memory.history)
        weighed += bool(observation.history) and observation.stock_count > 0
        choice = search(observation, random.Random(1))
        for _ in range(SHUFFLES):
            shuffled = shuffle_hidden(state, seat, seen, rng)
            moved += shuffled.hands != state.hands or shuffled.stock != state.stock
            assert search(observe(shuffled, seat, seen, memory.history), random.Random(1)) == choice
    assert moved > 0 and weighed > 0


def test_the_registry_adapter_does_not_peek() -> None:
    """The (state, seat, rng) policies build the observation themselves; each copy has its own memory."""
    def decide(state: State, seat: int, seen: int) -> Action:
        return POLICIES["heuristic"](state.copy(), seat, random.Random(1))

    assert choice_is_stable(decide, (Rules(transfer=True), 3), every=2) > 0


def test_a_peeking_policy_is_caught() -> None:
    """The check can fail: a policy that leads the card matching the next hand's lowest card changes its mind."""
    def peeking(state: State, seat: int, seen: int) -> Action:
        moves = legal_actions(state, seat)
        hidden = state.hands[(seat + 1) % state.n]
        return moves[((hidden & -hidden).bit_length() + len(state.stock) + sum(state.stock[-3:])) % len(moves)]

    with pytest.raises(AssertionError):
        choice_is_stable(peeking, (Rules(), 2), every=2)
