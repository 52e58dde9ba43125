"""The search bot: Information Set Monte Carlo Tree Search over deals consistent with what the seat knows.

Each iteration deals the unseen cards at random into the places they could be (``Observation.sample``),
walks one tree shared by all deals from the bot's decision (single-observer ISMCTS, Cowling, Powley and
Whitehouse 2012: a child is chosen by UCB1 among the moves legal in this deal, counting how often it was
available), adds one node, plays the game out with the heuristic bot for every seat, and credits each move
on the path with the reward of the seat that made it. Rewards are by place: 1 for the first out down to 0
for the durak, shared places averaged; in team games 1 for the winning team, 0 for the losers, 1/2 a draw.

Heads-up on plain tables the deals are not drawn blind: every move the other player has made since the deal is
evidence of his hand (``Observation.history``), the heuristic being the model of him. ``inference.Posterior``
weighs guesses at his hidden cards by how many of his decisions the heuristic would have made otherwise with
them (his draws walked back), at most ``POSTERIOR_SHARE`` of the move's budget, and the search deals from it.
In heuristic self-play its deals hold 0.43 of his hidden cards, against 0.35 for the current bout's evidence
alone and 0.33 for blind deals (417 positions of 40 games); knowing his hand outright is worth about 0.10
against the heuristic (bench/search_probe.py, ``sighted``). Against the heuristic at 0.3 s (bench/search_probe.py,
each deal from both seats; a miss then counted a fixed 0.1, not ``inference.adaptive_likelihood``), beside the
search before it, which kept blind deals in proportion to the likelihood of his moves in the current bout
alone (rejection sampling; that code and its probe arm ``bout`` are gone since the posterior replaced it):
155 of 195 decided games against 147 of 197 on 100 deals, then 215 of 289 against 216 of 289 on 150 others (63
games better, 63 worse); 0.764 against 0.747 in all, within the noise. A posterior without the chain (100
weighed guesses only) guessed as well (0.429) and scored 146 of 196 on the first 100 deals. The chain's deals
repeat a few hands, so each card's chance is now blended with a blind deal's (``inference.BLEND``): at 1 s a
move (bench/search_probe.py, 60 deals from both seats) the blended search scored 99 of 117 decided games
(0.846), the chain's whole guesses 93 of 113 (0.823) and blind deals 97 of 118 (0.822); within the noise, and
the blend's chances of each card are the better calibrated (inference.Posterior). Elsewhere (three
or more players, a cheating table, Aktobe, no history given) the deals are drawn blind (``Observation.sample``).
Keeping the other seat's statistics apart by the moves he has in the deal (his covers, throw-ins and takes: a
cheap stand-in for his own information set, so that he chooses as if he knew his hand) scored 0.747 of 289
decided games against 0.739 of 295 for this search (150 deals from both seats at 0.1 s; 56 games better, 54
worse): left out.

When several seats may act the tree draws one at random, as the engine's harness does. Moves in the tree
are a reduced, honest set (single cards and whole ranks; each open card covered by its cheapest plain or
cheapest trump beater) and the heuristic's own move (``tree_moves``; at the root as the seat sees the game).
The other seats choose in the tree by UCB1 too, with a lower constant than the bot's (``OTHERS_EXPLORATION``).
Measured with bench/search_probe.py (100 deals from both seats at 0.3 s, where the search with one constant
for every seat scored 0.790 of 190 decided games against the heuristic): the other seat playing the
heuristic's move in the tree instead scored 0.823 of 198 against the heuristic but 0.333 of 96 against that
search (50 deals from both seats at 0.3 s): it learns to exploit one opponent and loses to a better one.
Every legal move at the root instead of the reduced set scored 0.731 of 197. At 0.1 s (100 deals from both
seats), where this search scored 0.733 of 195, PIMC instead (a perfect-information search of each of 10 deals
drawn from the observation, a tenth of the budget each, the root's visits summed) scored 0.564 of 197: each
deal's search plays as if it saw the other hand. A progressive bias toward the heuristic's move where the
other seat chooses in the tree (1 / (visits + 1), so that his choices follow his cards in the deal) scored
0.727 of 293 against 0.730 of 296 without (150 deals from both seats at 0.1 s).
With cards in the stock the search plays another move than the heuristic's in about half of its choices (30
games at 0.3 s): most often it takes where the heuristic covers (one choice in six) and leads one card where the
heuristic leads a pair. Overruling it there, with the same 150 deals from both seats at 0.3 s against the
heuristic: the heuristic's plain cover instead of taking scored 230 of 296 decided games, the heuristic's pair
instead of one of its cards 213 of 292, and the search as it is 223 of 291. Of the 300 games, 77 ended otherwise
with the first (41 better, 36 worse) and 69 with the second (29 better, 40 worse): the search's takes are no
mistake, and its single leads are, if anything, better than the pairs.
Where the search earns its edge, on the same deals: the heuristic's move whenever 20 or more cards are left in
the stock (the first two bouts or so) scored 224 of 292, as the search; from 12 cards up, 208 of 291 (another
run than the search's, so the games differ by more than the moves overruled: 58 better, 75 worse).
Two changes to the playouts, measured at 0.1 s and left out. A learned value: a logistic model of who wins
from a bout's start (each hand's cards by rank and trumpness, hand sizes, who leads; one set of weights for
each of five stock sizes), fitted to 100,000 games of the heuristic against itself. Cutting a playout at the
end of its bout and scoring the model there (stock not empty) runs 2.5 times as many iterations and scored
0.736 of 193 decided games against the heuristic; the mean of the model and the playout, 0.737 of 190; this
search, 0.727 of 194 (100 deals from both seats). The model cannot judge much better than a playout: even
gradient-boosted trees over richer features (pairs, voids, the face-up trump) explain about 3 % of the
variance of the result with 19 or more cards in the stock and 6 % with 11 to 18: the stock's order decides.
Playouts in which each seat sees only its own hand (the other hand and the stock as one unseen pool, as
the heuristic sees them at a table) scored 0.734 of 293, against 0.735 of 294 with full sight (150 deals).
Solving the playouts' last cards instead of playing them out: heads-up with the stock empty, the heuristic's
play from a position with at most 4, 6 or 8 cards left in the hands and on the table ends otherwise than the
exact solver says in 15 %, 16 % and 19 % of the positions (300 self-play games); solving there costs 13, 41 and
189 positions on average. A playout that handed its last 6 cards (or 4) to the solver (400 positions at most,
the proofs kept) scored 153 of 195 decided games against the heuristic, as this search did (153 of 195; 36
games better, 37 worse), and 142 of 197 with 4 cards (100 deals from both seats at 0.3 s): the sharper ending
costs half the iterations (2,700 a second against 6,000) and buys nothing measurable. Left out.
Heads-up once the stock is empty or holds only the face-up trump, the bot knows every card and asks the
endgame solver first (``SearchBot.endgame_move``: 100,000 positions a CPU second of its budget, the tree ordered
by the heuristic's move, the proofs kept from move to move); it searches only when nothing is proven in time.
Paired against the heuristic (iterations capped, so that the games are the same up to the endgame), this
solver changed 7 of 300 games at 1,000 iterations a move (150 deals from both seats), all for the better (5
losses won, 2 drawn), and 2 of 200 at 3,000 (100 other deals), one each way: a small gain, and the smaller the
stronger the search that falls back on. The solver before it (20,000 positions, the stock empty only, no order,
nothing kept) threw away a proven win in 7 of 100 won endgames at its first endgame move (now 2 of 100).
A search stops at its CPU-time budget or its iteration cap, whichever comes first; with a fixed seed and a
cap that binds first it is reproducible. The budget is the whole move's: the solver, the evidence and the
search share it, and the search stops before an iteration would overrun it, keeping what releasing the tree
costs (``RELEASE_PER_NODE``, ``LONGEST_MARGIN``). A bot at a live table also has a wall-clock cap
(``wall_seconds``), so that it answers in time on a loaded server.
"""

from __future__ import annotations

import gc
import math
import random
import threading
import time
from collections.abc import Callable
from typing import Final

from games.engine.actions import ANNOUNCE, ATTACK, COVER, GIVE, PASS, SHOW_TRUMP, TAKE, THROW, TRANSFER, Action
from games.engine.cards import CARDS_OF_RANKS, RANK_MASK, popcount
from games.engine.play import (
    NO_LIMIT, actors, barred_leads, legal_actions, movers, must_cover_with, one_card_due, play_trusted, throwers,
)
from games.engine.state import State

from . import heuristic
from .endgame import NOT_LOSE, WIN, ProofTables, exact_endgame, prove
from .inference import BLEND, GUESSES, Posterior
from .knowledge import Observation, infers

# UCB1's constant. Measured with bench/search_probe.py at 0.3 s a move (the same 80 deals from both seats
# against the heuristic): 0.4 -> 0.734, 0.7 -> 0.724, 1.0 -> 0.780, 1.4 -> 0.763 of about 156 decided games.
EXPLORATION: Final = 1.0
# UCB1's constant where another seat chooses: lower, so the tree expects the others' best replies sooner.
# bench/search_probe.py (100 deals from both seats at 0.3 s): 0.5 scored 0.828 of 198 decided games against the
# heuristic, where 1.0 (as the bot's own) scored 0.790 of 190; against the search with 1.0, 47 of 95 (50 deals
# from both seats at 0.3 s, each search 0.3 s): as strong there, within the noise of either measurement.
# On the same probe 0.25 scored 0.784 of 199 and 0.7 scored 0.727 of 194: no slope, so the probe's noise (about
# +-0.06) is as large as the differences. bench/bots.py, four runs with 0.5: the expert against the heuristic
# 101 of 118, 99 of 120, 101 of 119, 87 of 111 (0.829 pooled; 0.779 of 113 in the last run with 1.0).
OTHERS_EXPLORATION: Final = 0.5
CHECK_EVERY: Final = 32  # iterations between looks at the root's visit counts (the clock: every iteration)
# Releasing the tree when the move is chosen costs about 0.4 to 0.6 microseconds a node (an iteration adds at most
# one): 5 to 10 ms after a second of search, more where iterations are quick (near the end of the stock, or after
# the endgame solver took part of the budget, the tree is larger for the time left). The search keeps the more
# of RELEASE_SHARE of the time spent and RELEASE_PER_NODE a node for the release, and stops before an iteration
# as long as LONGEST_MARGIN times its longest so far would overrun the budget (an iteration can be the longest
# yet), so that the whole move keeps to it. The share alone let moves of the expert overrun by up to 7.5 ms once
# its iteration cap no longer bounded the tree, and the longest iteration once (LONGEST_MARGIN 1) let a 0.05 s
# move overrun by 0.09 ms on a busy machine. (Stopping before a batch of CHECK_EVERY iterations of average length
# overran by a few tenths of a millisecond.) Reading the clock costs about 0.25 microseconds an iteration.
RELEASE_SHARE: Final = 0.01
RELEASE_PER_NODE: Final = 1e-6
LONGEST_MARGIN: Final = 2.0
# Players can pass cards round for ever (each leads what the next cannot beat); a playout this many actions a
# player long is stopped and scored as it stands. Real games take about 30 to 60 actions a player.
PLAYOUT_ACTIONS_PER_PLAYER: Final = 150
# Positions the endgame solver may visit per CPU second of the bot's budget before the search takes over
# (for a win, and what is left of it for not losing once no win is found); a position costs about 4
# microseconds, so the solver spends at most about 0.4 of the budget, and the search the rest.
ENDGAME_POSITIONS_PER_SECOND: Final = 100_000
ENDGAME_MOST_POSITIONS: Final = 100_000
# The endgame solver is asked from this many cards left in the stock (1: the face-up trump alone, which a
# seat sees, so that it knows every card then too).
SOLVED_STOCK: Final = 1
# The whole game's evidence (inference.Posterior) may take at most this share of a move's CPU budget.
POSTERIOR_SHARE: Final = 0.1
TAKE_ACTION: Final = Action(TAKE)
PASS_ACTION: Final = Action(PASS)


class Node:
    __slots__ = ("children", "visits", "reward", "available")

    def __init__(self) -> None:
        self.children: dict[tuple[int, int, int, int], Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.available = 0


def honest_actors(state: State) -> list[int]:
    """The seats that have an honest move now (at a cheating table the engine also counts seats whose only
    moves are accusations or illegal cards; in the search nobody cheats, so nobody needs to accuse)."""
    if state.special:
        return movers(state)  # Aktobe: optional moves ("how many cards?", the duel) are not the tree's
    if not state.rules.cheating:
        return actors(state)
    if state.finished:
        return []
    if not state.attack:
        return [state.attacker]
    seats = []
    if not state.taken and state.open:
        seats.append(state.defender)
    mask = throwers(state) & ~state.passed
    if mask:
        can_pass = state.taken or not state.open
        room = state.limit - len(state.attack)
        wanted = CARDS_OF_RANKS[state.table_ranks]
        for seat in range(state.n):
            if mask >> seat & 1 and (can_pass or room > 0 and state.hands[seat] & wanted):
                seats.append(seat)
    return seats


def candidate_actions(state: State, seat: int) -> list[Action]:
    """A reduced set of ``seat``'s honest legal moves for the tree: single cards and whole ranks for a lead,
    single cards for a throw-in, the cheapest plain and the cheapest trump cover of each open card, taking,
    passing, and transfers with one card, all cards of the rank, or a shown trump."""
    hand = state.hands[seat]
    trumps = heuristic.dear_cards(state)
    actions: list[Action] = []
    if state.special:
        # Aktobe: an owed card is given (the cheapest), "one card!" is said, before anything else.
        if state.owed:
            if any(entry >> 4 == seat for entry in state.owed):
                actions.append(Action(GIVE, 1 << heuristic.cheapest(hand, trumps)))
            return actions
        if one_card_due(state, seat):
            return [Action(ANNOUNCE)]
        if not state.attack and state.rules.no_attack_with_epaulettes:
            allowed = hand & ~barred_leads(state, seat)
            hand = allowed if allowed else hand
    if not state.attack:
        limit = state.limit
        rest = hand
        while rest:
            low = rest & -rest
            group = hand & RANK_MASK[(low.bit_length() - 1) >> 2]
            rest &= ~group
            cards = group
            while cards:
                single = cards & -cards
                actions.append(Action(ATTACK, single))
                cards ^= single
            if popcount(group) > 1 and limit > 1:
                plain = group & ~trumps
                if popcount(plain) > 1 and plain != group:
                    actions.append(Action(ATTACK, heuristic.first_cards(plain, limit)))
                actions.append(Action(ATTACK, heuristic.first_cards(group, limit)))
        return actions
    if seat == state.defender:
        if state.taken or not state.open:
            return actions
        if state.forced_take:
            return [TAKE_ACTION]
        beaters = state.beaters
        for attack, covering in zip(state.attack, state.cover):
            if covering >= 0:
                continue
            options = beaters[attack] & hand
            plain = options & ~trumps
            if plain:
                actions.append(Action(COVER, plain & -plain, attack))
            trump_options = options & trumps
            if trump_options:
                actions.append(Action(COVER, trump_options & -trump_options, attack))
        if not (state.hidden_cards and must_cover_with(state) >= 0):
            actions.append(TAKE_ACTION)
        if state.rules.transfer and not state.covered and hand & RANK_MASK[state.attack[0] >> 2]:
            for action in legal_actions(state, seat):
                kind = action.kind
                if kind == SHOW_TRUMP or kind == TRANSFER and (
                        not action.cards & (action.cards - 1) or action.cards == hand & RANK_MASK[state.attack[0] >> 2]):
                    actions.append(action)
        return actions
    if not throwers(state) >> seat & 1 or state.passed >> seat & 1:
        return actions
    room = state.limit - len(state.attack)
    if state.taken and state.special and state.rules.unlimited_throw_in_on_take:
        room = NO_LIMIT
    if room > 0:
        matching = hand & CARDS_OF_RANKS[state.table_ranks]
        while matching:
            single = matching & -matching
            actions.append(Action(THROW, single))
            matching ^= single
    if state.taken or not state.open:
        actions.append(PASS_ACTION)
    return actions


def tree_moves(state: State, seat: int, possible: list[int]) -> list[Action]:
    """``candidate_actions`` and the heuristic's own move (``possible``: what it takes each seat to hold), which
    the reduced set can miss (a cover that is not the cheapest, several cards thrown in at once)."""
    moves = candidate_actions(state, seat)
    if state.special and state.owed:
        return moves  # Aktobe: only the owed cards are given now
    usual = heuristic.decide(state, seat, possible)
    if usual not in moves:
        moves.append(usual)
    return moves


def rewards(state: State) -> list[float]:
    """Each seat's reward for a game: by place, 1 for the first out down to 0 for the durak, places shared by
    players who went out in the same bout averaged; in teams by the team's result. A playout stopped before
    the end (players can pass cards round for ever) ranks the players still in by their card counts.

    Only the place counts: heads-up, a tenth of the reward by the margin (the cards the durak is left with)
    scored 0.793 of 193 decided games against the heuristic (bench/search_probe.py, 100 deals from both seats
    at 0.3 s), the same as 0.790 without."""
    n = state.n
    result = state.result
    if state.team_of is not None:
        if result is None:
            return _team_rewards_by_cards(state)
        if result["outcome"] == "draw":
            return [0.5] * n
        losers = result["losing_team"] or []
        return [0.0 if seat in losers else 1.0 for seat in range(n)]
    groups: list[list[int]] = []
    out, out_bouts = state.out, state.out_bouts
    for index, seat in enumerate(out):
        if index and out_bouts[index] == out_bouts[index - 1]:
            groups[-1].append(seat)
        else:
            groups.append([seat])
    if result is None:
        holding = sorted((popcount(state.hands[seat]), seat) for seat in range(n) if not state.out_mask >> seat & 1)
        for index, (count, seat) in enumerate(holding):
            if index and count == holding[index - 1][0]:
                groups[-1].append(seat)
            else:
                groups.append([seat])
    values = [0.0] * n  # the durak keeps 0
    position = 0
    for group in groups:
        average_place = position + (len(group) - 1) / 2
        for seat in group:
            values[seat] = 1.0 - average_place / (n - 1)
        position += len(group)
    return values


def durak_rewards(state: State) -> list[float]:
    """Each seat's share of not being the durak (the game review's chances, games.bots.review): 0 for the
    durak, 1 for every other seat; a draw (the last players out in the same bout) a half for each of them; a
    playout stopped before the end, 1 - 1/k for each of the k seats holding the most cards. Heads-up and in
    teams the same as ``rewards``."""
    n = state.n
    if n == 2 or state.team_of is not None:
        return rewards(state)
    values = [1.0] * n
    result = state.result
    if result is None:
        holding = [popcount(state.hands[seat]) if not state.out_mask >> seat & 1 else -1 for seat in range(n)]
        most = max(holding)
        losers = [seat for seat in range(n) if holding[seat] == most]
        for seat in losers:
            values[seat] = 1.0 - 1.0 / len(losers)
        return values
    durak = result["durak"]
    if durak is not None:
        values[int(durak)] = 0.0
        return values
    out, out_bouts = state.out, state.out_bouts
    for index, seat in enumerate(out):
        if out_bouts[index] == out_bouts[-1]:
            values[seat] = 0.5
    return values


def _team_rewards_by_cards(state: State) -> list[float]:
    assert state.team_of is not None
    held = [0, 0]
    for seat in range(state.n):
        held[state.team_of[seat]] += popcount(state.hands[seat])
    if held[0] == held[1]:
        return [0.5] * state.n
    better = 0 if held[0] < held[1] else 1
    return [1.0 if state.team_of[seat] == better else 0.0 for seat in range(state.n)]


def playout(state: State, rng: random.Random, epsilon: float) -> None:
    """Play ``state`` to its end in place: every seat plays the heuristic with full sight of this deal,
    and now and then (``epsilon``) a random move from the tree's move set instead.

    Every table plays with ``epsilon`` 0: ``bench/search_probe.py --epsilon=0.1`` (100 deals from both seats at
    0.3 s) measured 0.796 of 196 decided games against the heuristic, the same as 0.790 without."""
    hands = state.hands
    steps = 0
    most = PLAYOUT_ACTIONS_PER_PLAYER * state.n
    # Local names: this loop is where the search spends most of its time.
    acting = honest_actors if state.rules.cheating or state.special else actors
    decide = heuristic.decide
    draw = rng.random
    while not state.finished and steps < most:
        seats = acting(state)
        seat = seats[0] if len(seats) == 1 else seats[int(draw() * len(seats))]
        if epsilon and draw() < epsilon:
            moves = candidate_actions(state, seat)
            action = moves[int(draw() * len(moves))]
        else:
            action = decide(state, seat, hands)
        play_trusted(state, seat, action)
        steps += 1


# The cyclic garbage collector waits while a search moves: the tree and the deals hold no reference cycles (what
# they allocate is freed as it goes), and a full collection walks the whole process's objects, which in a test
# run or a server are many: 66 ms of a 50 ms move in the test suite. A lock and a count, so that searches on
# several threads resume it only when the last one ends; a collector its process had switched off stays off.
class _CollectorPause:
    """How many searches are under way, and whether the collector was on when the first of them began."""

    __slots__ = ("lock", "searches", "was_enabled")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.searches = 0
        self.was_enabled = False

    def pause(self) -> None:
        with self.lock:
            if self.searches == 0:
                self.was_enabled = gc.isenabled()
                gc.disable()
            self.searches += 1

    def resume(self) -> None:
        with self.lock:
            self.searches -= 1
            if self.searches == 0 and self.was_enabled:
                gc.enable()


_COLLECTOR: Final = _CollectorPause()


class SearchBot:
    """``SearchBot(seconds, iterations)(observation, rng)``: the move ISMCTS finds best within the budget.

    ``seconds`` is CPU time, so the bot plays as well on a busy machine as on an idle one; ``wall_seconds``
    (optional) also bounds the wall-clock time, so that a bot at a live table still answers promptly when
    other work shares its core (it then searches less). The benchmarks leave it out: they measure strength
    per CPU second."""

    def __init__(self, seconds: float, iterations: int, exploration: float = EXPLORATION, epsilon: float = 0.0,
                 wall_seconds: float | None = None, infer: bool = True,
                 others_exploration: float = OTHERS_EXPLORATION, guesses: int = GUESSES,
                 blend: float = BLEND, reward: Callable[[State], list[float]] = rewards) -> None:
        self.seconds = seconds
        self.reward = reward  # each seat's reward at a playout's end: by place (``rewards``) at every table
        self.blend = blend
        self.guesses = guesses
        self.others_exploration = others_exploration
        self.infer = infer
        self.iterations = iterations
        self.wall_seconds = wall_seconds
        self.exploration = exploration
        self.epsilon = epsilon
        self.__name__ = f"search({seconds:g} s, {iterations} iterations)"
        self.last_iterations = 0
        self.last_posterior: Posterior | None = None  # the whole game's evidence the last search drew from
        self.proofs = ProofTables()

    def __call__(self, observation: Observation, rng: random.Random,
                 deal: Callable[[random.Random], State] | None = None) -> Action:
        """``deal``: draws the deals searched instead of the observation (a diagnostic's clairvoyant search,
        bench/search_probe.py); a bot at a table never has one."""
        legal = observation.legal
        if len(legal) == 1:
            return legal[0]
        _COLLECTOR.pause()
        try:
            return self._choose(observation, rng, deal)
        finally:
            _COLLECTOR.resume()

    def _choose(self, observation: Observation, rng: random.Random,
                deal: Callable[[random.Random], State] | None) -> Action:
        legal = observation.legal
        started = time.process_time()
        state = observation.filled()
        seat = observation.seat
        routine = heuristic.routine_move(observation, state, rng)
        if routine is not None:
            return routine
        possible = [observation.possible(other) for other in range(observation.players)]
        if exact_endgame(state, SOLVED_STOCK):
            # Heads-up with the stock empty, or holding only the face-up trump, the filled state is the true one:
            # an exact solver, within a budget.
            proven = self.endgame_move(state, seat, heuristic.decide(state, seat, possible), legal)
            if proven is not None:
                return proven
        moves = tree_moves(state, seat, possible)
        if len(moves) == 1:
            return moves[0]
        search_rng = random.Random(rng.getrandbits(64))
        root = self.search(observation, moves, search_rng, self.seconds - (time.process_time() - started), deal)
        best = max(moves, key=lambda move: _visits(root, seat, move))
        return best

    def endgame_move(self, state: State, seat: int, action: Action, legal: tuple[Action, ...]) -> Action | None:
        """A move the endgame solver proves to win, else (when it proved that none wins) one it proves not to
        lose, ``action`` tried first; None if it proves neither within the bot's budget of positions. What it
        proves is kept for the bot's next moves (``ProofTables``)."""
        budget = min(int(self.seconds * ENDGAME_POSITIONS_PER_SECOND), ENDGAME_MOST_POSITIONS)
        moves = [action] + [move for move in legal if move != action]
        proof = prove(state, seat, moves, budget, WIN, self.proofs, solver_first_move)
        if proof.move is not None or not proof.complete:
            return proof.move
        return prove(state, seat, moves, budget - proof.nodes, NOT_LOSE, self.proofs, solver_first_move).move

    def search(self, observation: Observation, moves: list[Action], rng: random.Random,
               seconds: float | None = None, deal: Callable[[random.Random], State] | None = None) -> Node:
        """Iterate until the budget is spent, or until the most visited move can no longer be overtaken in
        the iterations left (a move's visits, not its value, choose it). ``seconds``: the CPU budget, if not
        the bot's own (what the endgame solver left of it)."""
        budget = self.seconds if seconds is None else seconds
        root = Node()
        seat = observation.seat
        started = time.process_time()
        wall_started = time.perf_counter()
        wall_seconds = self.wall_seconds if self.wall_seconds is not None else math.inf
        iteration = 0
        self.last_posterior = None
        other = 1 - seat
        if self.infer and self.guesses and observation.history and observation.stock_count > 0 and deal is None \
                and infers(observation.public) and observation.counts[other] > popcount(observation.known[other]):
            posterior = Posterior(observation, rng, self.guesses, seconds=POSTERIOR_SHARE * budget, blend=self.blend)
            self.last_posterior = posterior
            deal = posterior.deal
        longest = wall_longest = 0.0  # the longest iteration so far, in CPU and in wall-clock seconds
        last, wall_last = time.process_time(), time.perf_counter()  # the evidence's time is not an iteration's
        while iteration < self.iterations:
            if iteration:
                # Stop before an iteration that could overrun the budget (one up to LONGEST_MARGIN times the
                # longest so far), keeping enough of it for the tree's release.
                now, wall_now = time.process_time(), time.perf_counter()
                longest, wall_longest = max(longest, now - last), max(wall_longest, wall_now - wall_last)
                last, wall_last = now, wall_now
                elapsed, wall_elapsed = now - started, wall_now - wall_started
                release = max(RELEASE_SHARE * elapsed, RELEASE_PER_NODE * iteration)
                # By the clock the release takes as much longer than on the CPU as the search has on a busy machine.
                wall_release = release * (wall_elapsed / elapsed if wall_elapsed > elapsed > 0 else 1.0)
                if elapsed + release + LONGEST_MARGIN * longest >= budget \
                        or wall_elapsed + wall_release + LONGEST_MARGIN * wall_longest >= wall_seconds:
                    break
                if iteration % CHECK_EVERY == 0:
                    left = min(self.iterations - iteration, iteration * (budget - elapsed) / max(elapsed, 1e-9),
                               iteration * (wall_seconds - wall_elapsed) / max(wall_elapsed, 1e-9))
                    visits = sorted((child.visits for child in root.children.values()), reverse=True)
                    if len(visits) > 1 and visits[0] - visits[1] > left:
                        break
            state = deal(rng) if deal is not None else observation.sample(rng)
            self._iterate(root, state, seat, rng, moves)
            iteration += 1
        self.last_iterations = iteration
        return root

    def _iterate(self, root: Node, state: State, seat: int, rng: random.Random, root_moves: list[Action]) -> None:
        path: list[tuple[Node, int]] = []
        node = root
        actor = seat
        exploration = self.exploration
        others_exploration = self.others_exploration
        hands = state.hands
        while not state.finished:
            if path:
                seats = honest_actors(state)
                actor = seats[0] if len(seats) == 1 else seats[int(rng.random() * len(seats))]
                moves = tree_moves(state, actor, hands)
            else:
                moves = root_moves  # the same in every deal: drawn from the seat's own view
            children = node.children
            untried: list[tuple[tuple[int, int, int, int], Action]] = []
            available: list[tuple[Node, Action]] = []
            for move in moves:
                key = (actor, move.kind, move.cards, move.target)
                child = children.get(key)
                if child is None:
                    untried.append((key, move))
                else:
                    child.available += 1
                    available.append((child, move))
            if untried:
                # A new child at random. Measured at 0.3 s against the heuristic (100 deals from both seats):
                # the heuristic's move first scored 0.769 of 195 decided games, against 0.790; and the tree
                # runs on past the bout's end, since stopping it there (the draws fuse deals in the nodes
                # after it) scored 0.698 of 192.
                key, move = untried[int(rng.random() * len(untried))]
                child = Node()
                child.available = 1
                children[key] = child
                play_trusted(state, actor, move)
                path.append((child, actor))
                break
            best_score = -1.0
            best_child = available[0][0]
            best_move = available[0][1]
            constant = exploration if actor == seat else others_exploration
            for child, move in available:
                score = child.reward / child.visits + constant * math.sqrt(math.log(child.available) / child.visits)
                if score > best_score:
                    best_score, best_child, best_move = score, child, move
            play_trusted(state, actor, best_move)
            path.append((best_child, actor))
            node = best_child
        playout(state, rng, self.epsilon)
        values = self.reward(state)
        for child, mover in path:
            child.visits += 1
            child.reward += values[mover]


def solver_first_move(state: State, seat: int) -> Action:
    """The move the endgame solver tries first in its tree: the heuristic's, with every hand in sight."""
    return heuristic.decide(state, seat, state.hands)


def _visits(root: Node, seat: int, move: Action) -> int:
    child = root.children.get((seat, move.kind, move.cards, move.target))
    return child.visits if child is not None else -1
