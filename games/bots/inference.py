"""Whole-game inference of the other hand, heads-up on plain tables: how well a guess at his hand now explains
every move he has made since the deal, the heuristic being the model of him.

A guess gives his hidden cards now. Walking the game back (``Observation.history``), his hidden cards before
each step are those after it with the cards the step laid or showed put back and the cards he drew after it
taken out; how many he drew is public, which they were is not, so ``History.misses`` searches the draws for
the best explanation. A decision the heuristic would have made otherwise with the guessed hand is a miss.

``Posterior`` weighs random guesses by ``likelihood ** misses``, runs a Metropolis chain from the best of them
(one card of his swapped for another unseen card a step), and deals the search's states from the chain: his
hand card by card, each card's share of the chain blended with a blind deal's (``BLEND``), the stock shuffled
afresh. What a miss counts is read from the player (``adaptive_likelihood``): sharply when the best guess
explains nearly all his decisions, not at all when the heuristic does not explain him.
How well it guesses: docs/experiments.md, games.bots.inference.
"""
from __future__ import annotations

import bisect
import random
import time
from typing import Final

from games.engine.actions import ATTACK, COVER, PASS, SHOW_TRUMP, TAKE, THROW, TRANSFER, Action
from games.engine.cards import cards_in, deck_mask, popcount
from games.engine.state import State

from . import heuristic
from .knowledge import Observation

SHARPEST: Final = 0.02  # the least a miss counts (adaptive_likelihood)
GUESSES: Final = 100  # random guesses weighed at the root of a search
CHAIN_STEPS: Final = 300  # the Metropolis chain's steps from the best of them
BLEND: Final = 0.7  # the weight of the guesses in a card's chance of being in his hand, a blind deal's the rest
TRIES: Final = 3  # random choices of the cards drawn at a refill, the best kept
LAID: Final = (ATTACK, THROW, COVER, TRANSFER, SHOW_TRUMP)  # the kinds of move that lay or show cards
DECISIONS: Final = (ATTACK, THROW, COVER, TRANSFER, PASS, TAKE)  # the kinds weighed as evidence


class Decision:
    """One decision of the other player: the public state before it (his known cards in his hand, his seat's
    other cards to be filled in), his known cards then, and what he did."""

    __slots__ = ("then", "known", "mine", "need", "unseen", "action")

    def __init__(self, then: State, known: int, mine: int, need: int, unseen: int, action: Action) -> None:
        self.then = then
        self.known = known
        self.mine = mine  # the observer's cards the other player had seen then
        self.need = need  # how many more cards the observer held then
        self.unseen = unseen  # the cards not on the table, not discarded and not face up under the stock
        self.action = action


class Segment:
    """The steps between two refills, walked back: first the cards he drew at the refill that ends it (how
    many), then its steps latest first, each with the hidden cards it laid and his decision, if any."""

    __slots__ = ("drawn", "steps")

    def __init__(self, drawn: int) -> None:
        self.drawn = drawn
        self.steps: list[tuple[int, Decision | None]] = []


class History:
    """The other player's decisions in a heads-up game, from ``Observation.history``, ready to be weighed
    against guesses at his hand."""

    __slots__ = ("other", "segments", "decisions", "left", "walked")

    def __init__(self, observation: Observation) -> None:
        other = 1 - observation.seat
        observer = observation.seat
        self.other = other
        history = observation.history
        deck = deck_mask(observation.rules.deck)
        after = observation.counts[other] - popcount(observation.known[other])
        segments: list[Segment] = []
        segment: Segment | None = None
        decisions = 0
        for index in range(len(history) - 1, -1, -1):
            step = history[index]
            public = step.public
            known = public.hands[other]
            before = step.counts[other] - popcount(known)
            action = step.action
            kind = action.kind
            own = step.seat == other
            laid = action.cards & ~known if own and kind in LAID else 0
            drawn = after - before + popcount(laid)
            after = before
            if segment is None or drawn > 0:
                segment = Segment(max(drawn, 0))
                segments.append(segment)
            decision: Decision | None = None
            if own and kind in DECISIONS:
                then = public.copy()
                if step.stock_count:
                    then.stock = [public.trump_card] * step.stock_count  # the heuristic reads only how many
                unseen = deck & ~(then.discard | then.table_mask())
                if step.stock_count and public.trump_card >= 0:
                    unseen &= ~(1 << public.trump_card)
                mine = public.hands[observer]
                decision = Decision(then, known, mine, step.counts[observer] - popcount(mine), unseen, action)
                decisions += 1
            segment.steps.append((laid, decision))
        self.segments = segments
        self.decisions = decisions
        self.left = 0  # segments the current search (``misses``) may still walk
        self.walked = 0  # segments walked since the history was read

    def misses(self, hidden: int, rng: random.Random, tries: int = TRIES, budget: int = -1) -> int:
        """How few of his decisions the heuristic would have made otherwise, had his hidden cards now been
        ``hidden``, under the draws found: walking back, at each refill up to ``tries`` random choices of the
        cards he drew, each followed back to the deal while it can still beat the best found (a depth-first
        search stopped by a perfect explanation or, once its first path is walked, by ``budget`` segments
        walked in all; ``tries`` times the segments unless given). The first path alone walks each segment
        once, so a guess costs at most about ``tries`` + 1 walks of the game, however badly the heuristic
        explains the player (against a random player no draw explains him, and nothing is pruned)."""
        self.left = budget if budget >= 0 else tries * len(self.segments)
        return self._search(0, hidden, 0, 1 << 30, rng, tries)

    def _search(self, index: int, hidden: int, so_far: int, best: int, rng: random.Random, tries: int) -> int:
        segments = self.segments
        while index < len(segments) and not segments[index].drawn:
            self.left -= 1
            missed, hidden = self._walk(segments[index], hidden, best - so_far)
            so_far += missed
            if so_far >= best:
                return best
            index += 1
        if index == len(segments):
            return so_far
        segment = segments[index]
        for attempt in range(tries):
            if attempt and self.left <= 0 or best <= so_far:
                break
            self.left -= 1
            missed, earlier = self._walk(segment, _remove_random(hidden, segment.drawn, rng), best - so_far)
            if so_far + missed < best:
                best = self._search(index + 1, earlier, so_far + missed, best, rng, tries)
        return best

    def _walk(self, segment: Segment, hidden: int, most: int) -> tuple[int, int]:
        """His misses in ``segment`` (stopping at ``most``) and his hidden cards before it, from ``hidden``
        after its refill's cards were taken out."""
        other = self.other
        missed = 0
        self.walked += 1
        for laid, decision in segment.steps:
            hidden |= laid
            if decision is None or missed >= most:
                continue
            held = decision.known | hidden
            then = decision.then
            unseen = decision.unseen & ~held
            mine = decision.mine
            filler = unseen & ~mine
            hands = then.hands
            hands[other] = held
            hands[1 - other] = mine | heuristic.first_cards(filler, decision.need) if decision.need > 0 else mine
            possible = [0, 0]
            possible[other] = held
            possible[1 - other] = mine | unseen
            choice = heuristic.decide(then, other, possible)
            action = decision.action
            if choice.kind != action.kind or choice.cards != action.cards or choice.target != action.target:
                missed += 1
        return missed, hidden


def adaptive_likelihood(fewest: int, decisions: int) -> float:
    """What a miss counts against a guess, from how well the best guess explains his decisions: a player who
    plays as the heuristic does (every decision explained) is read sharply, one who often does not, loosely,
    and one the heuristic does not explain at all (a random player) not at all. With ``q`` the share of his
    decisions he plays as the heuristic would (estimated from the best guess's misses), a miss is
    ``(1 - q) / q`` times as likely as a hit, kept between ``SHARPEST`` and 1."""
    share = (fewest + 0.5) / (decisions + 1)
    return min(1.0, max(SHARPEST, share / (1.0 - share)))


def _remove_random(cards: int, count: int, rng: random.Random) -> int:
    """``cards`` less ``count`` of them chosen at random."""
    chosen = list(cards_in(cards))
    for index in range(min(count, len(chosen))):
        pick = index + int(rng.random() * (len(chosen) - index))
        chosen[index], chosen[pick] = chosen[pick], chosen[index]
        cards &= ~(1 << chosen[index])
    return cards


class Posterior:
    """Guesses at the other hand weighed by the whole game's evidence; ``deal(rng)`` draws a playable state
    from them, the stock's order drawn afresh each time.

    ``guesses`` random guesses are weighed first (``likelihood`` ** misses; None: ``adaptive_likelihood`` of the
    best one's misses); with ``steps``, a Metropolis chain then starts from the best of them and the chain's
    states are the guesses drawn from (``seconds``: the CPU time both may take together, give or take a few
    guesses' or steps' worth: the clock is read every 8 guesses and every 16 steps).

    With ``blend`` (the search passes ``BLEND``) a deal does not take a guess whole: each unseen card's chance
    of being in his hand is its weighed share of the guesses times ``blend``, plus a blind deal's chance times
    the rest (``weights``), and his hand is drawn card by card in proportion: the chain alone repeats a few
    hands, which the search would then play as if it knew (docs/experiments.md, games.bots.inference.BLEND)."""

    __slots__ = ("observation", "guesses", "cumulative", "likelihood", "fewest", "decisions", "cards", "weights",
                 "need")

    def __init__(self, observation: Observation, rng: random.Random, guesses: int = GUESSES,
                 likelihood: float | None = None, tries: int = TRIES, steps: int = CHAIN_STEPS,
                 seconds: float = 1.0, blend: float = 0.0) -> None:
        started = time.process_time()
        self.observation = observation
        other = 1 - observation.seat
        history = History(observation)
        self.decisions = history.decisions
        need = observation.counts[other] - popcount(observation.known[other])
        unseen = list(cards_in(observation.unseen))
        self.guesses: list[int] = []
        self.cumulative: list[float] = []
        misses: list[int] = []
        deadline = started + seconds
        for guess in range(max(guesses, 1)):
            if guess % 8 == 7 and time.process_time() > deadline:
                break
            rng.shuffle(unseen)
            hand = 0
            for card in unseen[:need]:
                hand |= 1 << card
            self.guesses.append(hand)
            misses.append(history.misses(hand, rng, tries))
        fewest = min(misses)
        self.fewest = fewest
        self.likelihood = adaptive_likelihood(fewest, history.decisions) if likelihood is None else likelihood
        if steps:
            self._chain(history, misses, rng, tries, steps, deadline)
            misses = [0] * len(self.guesses)
            fewest = 0
        total = 0.0
        for missed in misses:
            total += self.likelihood ** (missed - fewest)
            self.cumulative.append(total)
        self.need = need
        self.cards = unseen
        self.weights: list[float] = []
        if blend > 0.0 and unseen:
            # Each unseen card's chance of being in his hand under the guesses, shrunk toward a blind deal's.
            share: dict[int, float] = {}
            before = 0.0
            for index, guess in enumerate(self.guesses):
                weight = self.cumulative[index] - before
                before = self.cumulative[index]
                for card in cards_in(guess):
                    share[card] = share.get(card, 0.0) + weight
            blind = need / len(unseen)
            self.weights = [blend * share.get(card, 0.0) / total + (1.0 - blend) * blind for card in unseen]

    def _chain(self, history: History, misses: list[int], rng: random.Random, tries: int, steps: int,
               deadline: float) -> None:
        """Metropolis from the best guess: swap one of his hidden cards for another unseen card, and keep the
        swap with probability likelihood ** (its misses less the current guess's); the chain's states after
        its first quarter become the guesses."""
        missed = self.fewest
        hand = self.guesses[misses.index(missed)]
        unseen = self.observation.unseen
        likelihood = self.likelihood
        chain: list[int] = []
        for step in range(steps):
            if step % 16 == 15 and time.process_time() > deadline:
                break
            held = list(cards_in(hand))
            rest = list(cards_in(unseen & ~hand))
            if held and rest:
                out = held[int(rng.random() * len(held))]
                into = rest[int(rng.random() * len(rest))]
                proposal = hand & ~(1 << out) | 1 << into
                proposed = history.misses(proposal, rng, tries)
                if proposed <= missed or rng.random() < likelihood ** (proposed - missed):
                    hand, missed = proposal, proposed
            chain.append(hand)
        self.guesses = chain[len(chain) // 4:] or [hand]

    def deal(self, rng: random.Random) -> State:
        """A state with a guess drawn by its weight in the other hand, and the other unseen cards in the stock
        in a random order."""
        if self.weights:
            hand = self._drawn(rng)
        else:
            cumulative = self.cumulative
            pick = bisect.bisect_right(cumulative, rng.random() * cumulative[-1])
            hand = self.guesses[min(pick, len(self.guesses) - 1)]
        stock = list(cards_in(self.observation.unseen & ~hand))
        rng.shuffle(stock)
        return self.observation.deal_in(list(cards_in(hand)) + stock)

    def _drawn(self, rng: random.Random) -> int:
        """A hand of his hidden count drawn card by card, each in proportion to its chance (``weights``)."""
        cards = self.cards
        weights = self.weights[:]
        left = sum(weights)
        hand = 0
        for _ in range(self.need):
            point = rng.random() * left
            index = 0
            while index < len(cards) - 1 and (point >= weights[index] or weights[index] <= 0.0):
                point -= weights[index]
                index += 1
            if weights[index] <= 0.0:  # rounding ran past the last card left
                index = next(spot for spot, weight in enumerate(weights) if weight > 0.0)
            hand |= 1 << cards[index]
            left -= weights[index]
            weights[index] = 0.0
        return hand
