"""Search bots at several budgets whose random numbers are the deal's, for bench/duplicate.py's field of
players who differ by degree of one style.

A ``Searcher`` is the search bot (games.bots.search.SearchBot) capped at a number of iterations a move, its
CPU-time budget set so high that it never binds, so that a move does not depend on the machine's speed or
load. For each game it builds a fresh bot (``for_game``): its random numbers are drawn from a generator seeded
by the deal and the hand it holds (not the seat, nor the bot's budget: two holders of a hand start from the
same stream), and its endgame proofs are its own. With the arena's ``first_listed`` a game between two
searchers then depends on the deal, the seats and the two budgets alone, and whatever luck the random numbers
bring is the deal's too.

``infer``: the search weighs the whole game's evidence (inference.Posterior, capped at a tenth of a move's
CPU budget) by default; here it is off, as that cap would bind by the clock or not at all: the searchers deal
the unseen cards blindly (Observation.sample). The endgame solver (heads-up with the stock empty or holding
only the face-up trump) gets ``endgame_positions`` a move, a count, not a time, the same for every budget
(the heuristic's own, heuristic.ENDGAME_BUDGET, by default).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from games.bots.heuristic import ENDGAME_BUDGET
from games.bots.knowledge import Observation
from games.bots.search import SearchBot
from games.engine.actions import Action

# A CPU-time budget a move never reaches, so that the iteration cap is what binds.
UNBOUNDED_SECONDS = 1e6


@dataclass(frozen=True)
class Searcher:
    """The search bot at ``iterations`` a move, its random numbers seeded by the deal and its hand (and by
    ``stream`` when given: replays of a deal whose random numbers differ, bench/duplicate.py's
    ``search_self_deal_share``)."""

    iterations: int
    endgame_positions: int = ENDGAME_BUDGET
    stream: str = ""

    @property
    def name(self) -> str:
        return f"search{self.iterations}"

    def for_game(self, seed: str, hand: int) -> Callable[[Observation, random.Random], Action]:
        """A fresh bot for one game of the deal ``seed``, holding its ``hand``: it ignores the arena's
        generator and draws from its own, seeded by the deal and the hand."""
        bot = SearchBot(UNBOUNDED_SECONDS, self.iterations, infer=False, endgame_positions=self.endgame_positions)
        own = random.Random(f"searcher {seed} hand {hand}" + (f" stream {self.stream}" if self.stream else ""))

        def choose(observation: Observation, rng: random.Random) -> Action:
            return bot(observation, own)

        return choose
