"""The search's inference (games.bots.search.likely_sample): heads-up it keeps a deal in proportion to how
likely the other player's moves in the current bout were with the hand the deal gives him, the heuristic
being its model of him. Against the heuristic itself the true deal must fit that evidence, and the deals kept
must guess the other hand better than deals drawn blind."""

from __future__ import annotations

import random

from games.bots import heuristic
from games.bots.knowledge import BoutMemory, Observation, observe
from games.bots.search import likely_sample, misses
from games.engine import Rules, State, actors, play
from games.engine.cards import popcount
from tests.bots.variants import heuristic_self_play, new_state

GAMES = 30
SAMPLES = 12


def _positions(games: int) -> list[tuple[State, Observation]]:
    """Observations with evidence (and cards still to guess) in games the heuristic plays against itself."""
    return [(state.copy(), observation) for state, observation in heuristic_self_play(games, "inference", 3)
            if observation.evidence and observation.stock_count
            and state.hands[1 - observation.seat] & ~observation.known[1 - observation.seat]]


def test_the_heuristic_s_true_hand_fits_the_evidence_of_its_moves() -> None:
    positions = _positions(GAMES)
    assert len(positions) > 200
    fitting = sum(misses(observation.evidence, state) == 0 for state, observation in positions)
    # Not always: the heuristic at a table sees less than the model is given (it guesses what the other holds).
    assert fitting / len(positions) > 0.8


def test_deals_kept_by_the_evidence_guess_the_other_hand_better_than_blind_deals() -> None:
    rng = random.Random(7)
    blind = kept = 0.0
    positions = _positions(GAMES)
    for state, observation in positions:
        other = 1 - observation.seat
        hidden = state.hands[other] & ~observation.known[other]
        for _ in range(SAMPLES):
            blind += popcount(observation.sample(rng).hands[other] & hidden) / popcount(hidden)
            kept += popcount(likely_sample(observation, rng).hands[other] & hidden) / popcount(hidden)
    blind /= len(positions) * SAMPLES
    kept /= len(positions) * SAMPLES
    assert kept > blind + 0.01, (kept, blind)


def test_without_evidence_the_deal_is_the_blind_one() -> None:
    """Three players, or a cheating table: no evidence is gathered, and the deal is drawn exactly as blind."""
    for rules, players in ((Rules(), 3), (Rules(cheating=True), 2)):
        state = new_state(rules, players, "no-evidence")
        memory = BoutMemory()
        seat = actors(state)[0]
        observation = observe(state, seat, 0, memory.steps)
        action = heuristic.choose(observation, random.Random(1))
        memory.remember(state, seat, action, 0)
        play(state, seat, action)
        assert memory.steps == []
        nxt = actors(state)[0]
        observation = observe(state, nxt, action.cards, memory.steps)
        assert observation.evidence == ()
        assert likely_sample(observation, random.Random(5)).hands == observation.sample(random.Random(5)).hands
