"""The search bot: Information Set Monte Carlo Tree Search over deals consistent with what the seat knows.

Each iteration deals the unseen cards into the places they could be (``Observation.sample``, or heads-up on
plain tables ``inference.Posterior``, at most ``POSTERIOR_SHARE`` of the budget), walks one tree shared by all
deals (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012: a child is chosen by UCB1 among the moves
legal in this deal, counting how often it was available), adds one node, plays the game out with the
heuristic bot for every seat, and credits each move on the path with the reward of the seat that made it:
by place, 1 for the first out down to 0 for the durak; in team games 1 the winners, 0 the losers, 1/2 a draw.
Moves in the tree are a reduced, honest set (``tree_moves``); the other seats choose by UCB1 with
``OTHERS_EXPLORATION``. Heads-up with the stock empty or holding only the face-up trump, the endgame solver
is asked first (``SearchBot.endgame_move``). A search stops at its CPU-time budget, its iteration cap or the
live table's wall-clock cap (``wall_seconds``), keeping what releasing the tree costs (``RELEASE_PER_NODE``,
``LONGEST_MARGIN``). What was tried and measured: docs/experiments.md, games.bots.search.
"""

from __future__ import annotations

import gc
import math
import random
import threading
import time
from collections.abc import Callable
from typing import Final

from games.engine.acting import NEEDED, actors, who_acts
from games.engine.actions import ANNOUNCE, ATTACK, COVER, GIVE, PASS, SHOW_TRUMP, TAKE, THROW, TRANSFER, Action
from games.engine.aktobe import barred_leads, must_cover_with, one_card_due
from games.engine.cards import CARDS_OF_RANKS, RANK_MASK, popcount
from games.engine.legal import legal_actions
from games.engine.play import play_trusted
from games.engine.state import State
from games.engine.table import throw_room, throwers

from . import heuristic
from .endgame import NOT_LOSE, WIN, ProofTables, exact_endgame, prove
from .inference import BLEND, GUESSES, Posterior
from .knowledge import Observation, infers

# UCB1's constant for the bot's own choices (measured: docs/experiments.md).
EXPLORATION: Final = 1.0
# UCB1's constant where another seat chooses: lower, so the tree expects the others' best replies sooner
# (measured: docs/experiments.md).
OTHERS_EXPLORATION: Final = 0.5
CHECK_EVERY: Final = 32  # iterations between looks at the root's visit counts (the clock: every iteration)
# The search keeps the more of RELEASE_SHARE of the time spent and RELEASE_PER_NODE a node for releasing the
# tree, and stops before an iteration as long as LONGEST_MARGIN times its longest so far would overrun the
# budget, so that the whole move keeps to it (measured: docs/experiments.md).
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
    """The seats that have an honest move now: NEEDED (at a cheating table the engine also counts seats whose
    only moves are accusations or illegal cards; in the search nobody cheats, so nobody needs to accuse)."""
    return who_acts(state, NEEDED)


def candidate_actions(state: State, seat: int) -> list[Action]:
    """A reduced set of ``seat``'s honest legal moves for the tree: single cards and whole ranks for a lead,
    single cards for a throw-in, the cheapest plain and the cheapest trump cover of each open card, taking,
    passing, and transfers with one card, all cards of the rank, or a shown trump."""
    hand = state.hands[seat]
    trumps = heuristic.dear_cards(state)
    if state.special:
        # Aktobe: an owed card is given (the cheapest), "one card!" is said, before anything else.
        if state.owed:
            if any(giver == seat for giver, _ in state.owed_pairs()):
                return [Action(GIVE, 1 << heuristic.cheapest(hand, trumps))]
            return []
        if one_card_due(state, seat):
            return [Action(ANNOUNCE)]
        if not state.attack and state.rules.no_attack_with_epaulettes:
            allowed = hand & ~barred_leads(state, seat)
            hand = allowed if allowed else hand
    if not state.attack:
        return lead_candidates(hand, trumps, state.limit)
    if seat == state.defender:
        return defence_candidates(state, seat, hand, trumps)
    return throw_in_candidates(state, seat, hand)


def lead_candidates(hand: int, trumps: int, limit: int) -> list[Action]:
    """Leads from ``hand``: each card alone and, where ``limit`` allows more than one, each rank held twice or
    more as a whole (up to ``limit`` cards), and as its plain cards alone when it holds trumps too."""
    actions: list[Action] = []
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


def defence_candidates(state: State, seat: int, hand: int, trumps: int) -> list[Action]:
    """The defender's moves: the cheapest plain and the cheapest trump cover of each open card, taking, and
    the transfers with one card, all cards of the rank, or a shown trump."""
    if state.taken or not state.open:
        return []
    if state.forced_take:
        return [TAKE_ACTION]
    actions: list[Action] = []
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


def throw_in_candidates(state: State, seat: int, hand: int) -> list[Action]:
    """An attacker's moves once the bout is open: each matching card alone while there is room, and passing
    once the defender has taken or covered everything."""
    actions: list[Action] = []
    if not throwers(state) >> seat & 1 or state.passed >> seat & 1:
        return actions
    room = throw_room(state)
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
    Only the place counts (docs/experiments.md, games.bots.search.rewards)."""
    n = state.n
    result = state.result
    if state.team_of is not None:
        if result is None:
            return _team_rewards_by_cards(state)
        if result.draw:
            return [0.5] * n
        losers = result.losing_team or ()
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
    durak = result.durak
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
    and now and then (``epsilon``) a random move from the tree's move set instead; every table plays with
    ``epsilon`` 0 (docs/experiments.md, games.bots.search.playout)."""
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
                 blend: float = BLEND, reward: Callable[[State], list[float]] = rewards,
                 endgame_positions: int | None = None) -> None:
        self.seconds = seconds
        # The endgame solver's positions a move: by default ENDGAME_POSITIONS_PER_SECOND of the CPU budget, at
        # most ENDGAME_MOST_POSITIONS; a count given here instead keeps the move independent of the clock
        # (bench/searchers.py).
        self.endgame_positions = endgame_positions
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
        lose, ``action`` tried first; None if it proves neither within the bot's budget of positions
        (``endgame_positions``, or what its CPU budget allows). What it
        proves is kept for the bot's next moves (``ProofTables``)."""
        budget = (min(int(self.seconds * ENDGAME_POSITIONS_PER_SECOND), ENDGAME_MOST_POSITIONS)
                  if self.endgame_positions is None else self.endgame_positions)
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
                # A new child at random, and the tree runs on past the bout's end (docs/experiments.md,
                # games.bots.search: expanding a node).
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
