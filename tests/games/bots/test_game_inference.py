"""The search's whole-game inference (games.bots.inference): heads-up it weighs guesses at the other hand by
how well they explain every move he has made since the deal, walking his draws back, the heuristic being its
model of him. Against the heuristic itself the true hand must explain his moves, and the deals drawn from the
posterior must guess his hand far better than blind deals."""

from __future__ import annotations

import math
import random
import time

import pytest

from games.bots import heuristic
from games.bots.inference import BLEND, History, Posterior
from games.bots.knowledge import GameMemory, Observation, game_in_log, observe
from games.bots.search import SearchBot
from games.engine import Action, Rules, State, actors, play
from games.engine.cards import cards_in, deck_mask, popcount
from tests.games.bots.variants import heuristic_self_play, new_state

GAMES = 12
SAMPLES = 10


def _positions(games: int) -> list[tuple[State, Observation]]:
    """Observations with a history (and cards of the other hand still to guess, the stock not yet empty) in
    games the heuristic plays against itself."""
    return [(state.copy(), observation) for state, observation in heuristic_self_play(games, "game-inference", 5)
            if observation.history and observation.stock_count
            and state.hands[1 - observation.seat] & ~observation.known[1 - observation.seat]]


def _hidden(state: State, observation: Observation) -> int:
    other = 1 - observation.seat
    return state.hands[other] & ~observation.known[other]


def test_the_true_hand_explains_the_heuristic_s_whole_game() -> None:
    """With enough tries at which cards he drew when, the walk back finds draws under which the heuristic makes
    every one of his decisions with the true hand; a wrong count of his draws or of his cards at a step would
    leave misses. Random guesses at his hand explain far fewer."""
    positions = _positions(GAMES)[::3]
    assert len(positions) > 100
    rng = random.Random(2)
    explained = guessed = 0
    for state, observation in positions:
        history = History(observation)
        assert history.decisions > 0
        explained += history.misses(_hidden(state, observation), rng, tries=200) == 0
        guess = observation.sample(rng).hands[1 - observation.seat] & ~observation.known[1 - observation.seat]
        guessed += history.misses(guess, rng, tries=200) == 0
    assert explained / len(positions) > 0.8, explained / len(positions)
    assert guessed / len(positions) < 0.5, guessed / len(positions)


def test_the_posterior_guesses_the_other_hand_better_than_blind_deals() -> None:
    rng = random.Random(7)
    blind = posterior = 0.0
    positions = _positions(GAMES)[::2]
    for state, observation in positions:
        other = 1 - observation.seat
        hidden = _hidden(state, observation)
        deals = Posterior(observation, rng)
        for _ in range(SAMPLES):
            blind += popcount(observation.sample(rng).hands[other] & hidden) / popcount(hidden)
            posterior += popcount(deals.deal(rng).hands[other] & hidden) / popcount(hidden)
    count = len(positions) * SAMPLES
    blind, posterior = blind / count, posterior / count
    assert posterior > blind + 0.06, (posterior, blind)


@pytest.mark.parametrize("blend", [0.0, 0.7])
def test_a_posterior_deal_is_a_deal_of_the_observation(blend: float) -> None:
    """Every deal holds the seat's own hand, the other seat's known cards and count, and the unseen cards in
    the other hand and the stock, the face-up card at the stock's bottom: drawn from the chain's guesses, or
    card by card from their shares blended with a blind deal's."""
    rng = random.Random(3)
    for _state, observation in _positions(3)[::5]:
        other = 1 - observation.seat
        deals = Posterior(observation, rng, guesses=20, blend=blend)
        for _ in range(5):
            dealt = deals.deal(rng)
            assert dealt.hands[observation.seat] == observation.hand
            assert dealt.hands[other] & observation.known[other] == observation.known[other]
            assert popcount(dealt.hands[other]) == observation.counts[other]
            stock = 0
            for card in dealt.stock:
                stock |= 1 << card
            assert len(dealt.stock) == observation.stock_count
            assert (dealt.hands[other] & ~observation.known[other]) | stock & ~(1 << dealt.stock[0]) \
                == observation.unseen
            assert dealt.stock[0] == observation.face_up


def test_blended_deals_keep_the_evidence_and_vary_far_more_than_the_chain_s() -> None:
    """Each unseen card's weight is its share of the guesses blended with a blind deal's, so the weights sum
    to his hidden count and none falls to 0. The chain's deals hold the other hand a little better (the
    evidence unblended) but repeat a few hands; blended deals hold it better than blind ones and vary
    far more, and the chance they give each card of being in his hand is nearer the truth (log-loss)."""
    rng = random.Random(4)
    accuracy = {"chain": 0.0, "blend": 0.0, "blind": 0.0}
    distinct = {"chain": 0, "blend": 0}
    loss = {"chain": 0.0, "blend": 0.0}
    positions = _positions(GAMES)[::3]
    cards_seen = 0
    for state, observation in positions:
        other = 1 - observation.seat
        hidden = _hidden(state, observation)
        need = popcount(hidden)
        unseen = observation.unseen
        blind = need / popcount(unseen)
        for name, blend in (("chain", 0.0), ("blend", BLEND)):
            posterior = Posterior(observation, rng, blend=blend)
            if blend:
                assert abs(sum(posterior.weights) - need) < 1e-9
                assert min(posterior.weights) >= (1 - blend) * blind - 1e-12
            hands = [posterior.deal(rng).hands[other] & ~observation.known[other] for _ in range(100)]
            distinct[name] += len(set(hands))
            accuracy[name] += sum(popcount(hand & hidden) for hand in hands) / (100 * need)
            for card in cards_in(unseen):
                share = min(max(sum(hand >> card & 1 for hand in hands) / 100, 0.005), 0.995)
                loss[name] -= math.log(share if hidden >> card & 1 else 1 - share)
        accuracy["blind"] += sum(popcount(observation.sample(rng).hands[other] & hidden) for _ in range(100)) / (100 * need)
        cards_seen += popcount(unseen)
    count = len(positions)
    assert count > 50
    assert accuracy["chain"] > accuracy["blend"] > accuracy["blind"] + 0.03, accuracy
    assert distinct["blend"] > 1.5 * distinct["chain"], distinct  # measured 2.0 (at most 100 a position)
    assert loss["blend"] < loss["chain"], (loss["blend"] / cards_seen, loss["chain"] / cards_seen)


def test_a_live_table_s_log_gives_the_same_history_as_the_game_played() -> None:
    """``game_in_log`` replays a live table's log into the same public steps a game played action by action
    remembers, and remembers nothing for a game whose moves are not evidence."""
    state = new_state(Rules(), 2, "game-inference:log")
    dealt = state.copy()
    rng = random.Random(1)
    memory = GameMemory()
    log: list[tuple[int, Action]] = []
    seen = 0
    while not state.finished and len(log) < 40:
        seat = actors(state)[0]
        action = heuristic.choose(observe(state, seat, seen, memory.history), rng)
        memory.remember(state, seat, action, seen)
        play(state, seat, action)
        log.append((seat, action))
        seen |= action.cards
    replayed = game_in_log(dealt, log)
    assert len(replayed.history) == len(memory.history) == len(log)
    for mine, theirs in zip(replayed.history, memory.history):
        assert (mine.seat, mine.action, mine.counts, mine.stock_count, mine.public.hands) == \
            (theirs.seat, theirs.action, theirs.counts, theirs.stock_count, theirs.public.hands)
    three = new_state(Rules(), 3, "game-inference:three")
    seat = actors(three)[0]
    action = heuristic.choose(observe(three, seat, 0), rng)
    assert game_in_log(three, [(seat, action)]).history == []


def test_the_search_draws_its_deals_from_the_posterior_heads_up_on_plain_tables_only() -> None:
    """Heads-up with a history and cards in the stock the search weighs the whole game (``last_posterior``);
    at three players, at a cheating table, without the game's history and with ``guesses=0`` it does not."""
    search = SearchBot(seconds=60.0, iterations=30)
    without = SearchBot(seconds=60.0, iterations=30, guesses=0)
    used = 0
    for state, observation in _positions(2)[::4]:
        if len(observation.legal) < 2 or not observation.history:
            continue
        search(observation, random.Random(1))
        assert search.last_posterior is not None and search.last_posterior.decisions > 0
        without(observation, random.Random(1))
        assert without.last_posterior is None
        bare = observe(state, observation.seat, 0)
        assert not bare.history
        search(bare, random.Random(1))
        assert search.last_posterior is None
        # A seat that knows every card of the other hand (bench/search_probe.py's sighted arm) has nothing to
        # guess, though the history it is given says he held hidden cards.
        sighted = observe(state, observation.seat, deck_mask(state.rules.deck), observation.history)
        search(sighted, random.Random(1))
        assert search.last_posterior is None
        used += 1
    assert used > 5
    for rules, players in ((Rules(), 3), (Rules(cheating=True), 2)):
        state = new_state(rules, players, "game-inference:none")
        memory = GameMemory()
        for _ in range(8):
            seat = actors(state)[0]
            action = heuristic.choose(observe(state, seat, 0, memory.history), random.Random(1))
            memory.remember(state, seat, action, 0)
            play(state, seat, action)
        assert memory.history == []


def test_weighing_a_guess_costs_a_few_walks_of_the_game_even_against_a_random_player() -> None:
    """Against a random player no choice of his draws explains his play, so nothing is pruned: the search
    over his draws still walks each segment of the game at most about ``tries`` + 1 times, and a posterior
    keeps to its CPU time."""
    rng = random.Random(9)
    state = new_state(Rules(), 2, "game-inference:random")
    memory, seen = GameMemory(), 0
    checked = 0
    while not state.finished:
        seat = actors(state)[0]
        observation = observe(state, seat, seen, memory.history)
        other = 1 - seat
        if seat == 0 and observation.history and observation.stock_count and \
                observation.counts[other] > popcount(observation.known[other]):
            history = History(observation)
            for _ in range(5):
                before = history.walked
                history.misses(observation.sample(rng).hands[other] & ~observation.known[other], rng, tries=3)
                assert history.walked - before <= 4 * len(history.segments) + 1
            started = time.process_time()
            Posterior(observation, rng, guesses=10_000, seconds=0.05)
            assert time.process_time() - started < 0.5
            checked += 1
        moves = [action for action in observation.legal]
        action = heuristic.choose(observation, rng) if seat == 0 else moves[int(rng.random() * len(moves))]
        memory.remember(state, seat, action, seen)
        play(state, seat, action)
        seen |= action.cards
    assert checked > 3
