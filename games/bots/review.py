"""Game review: each decision of a finished game judged from its seat's information at that moment.

Each action is judged from its seat's ``Observation`` then, built as for a bot at a live table, never from
a card it could not see. The value is the chance of not being the durak (the search's ``durak_rewards``).
A first search over the search bot's candidate moves and the played move names the best (``_best``); when
the played move differs, each is searched again alone with as many iterations, so both chances come from
trees of one size. Heads-up once the seat knows every card (``exact_endgame``) the endgame solver gives
exact chances (``solved``) when it proves them within the budget's positions. A budget is spent as fixed
iterations (``ITERATIONS_PER_SECOND``): same record, seed and budget, same analysis.
A decision gives away ``best_after - after``, marked an inaccuracy, a mistake or a blunder past lichess's
thresholds below; a seat's accuracy is the mean of lichess's move accuracy over its decisions.
The JSON of an analysis (``JudgedGame.to_json``): docs/architecture.md, "Game review".
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.actions import REDEAL, SURRENDER, Action
from games.engine.errors import EngineError, IllegalAction
from games.engine.play import play
from games.engine.records import load_record
from games.engine.rules import Rules
from games.engine.state import State

from games.engine.cards import cards_in, popcount

from . import heuristic
from .endgame import NOT_LOSE, WIN, ProofTables, exact_endgame, prove
from .knowledge import GameMemory, GameStep, Observation, observe
from .search import _COLLECTOR, SOLVED_STOCK, Node, SearchBot, durak_rewards, solver_first_move, tree_moves

ANALYSIS_VERSION = 1

# Chance of not being the durak given away by a decision (best_after - after), 0 to 1.
INACCURACY = 0.05
MISTAKE = 0.10
BLUNDER = 0.15

# Budgets: CPU seconds of search per decision (the endgame solver answers within it where it proves).
BUDGETS: dict[str, float] = {"default": 0.5, "deep": 2.0}
# A budget is spent as a fixed number of search iterations (and of solver positions), not as a clock, so that
# the same record, seed and budget give the same analysis on any machine: the compiled search runs about this
# many iterations a CPU second in a heads-up game (docs/experiments.md, review.ITERATIONS_PER_SECOND).
ITERATIONS_PER_SECOND = 10_000
# The solver's positions a second of budget (about 4 microseconds a position).
ENDGAME_POSITIONS_PER_SECOND = 200_000
# The share of a decision's iterations that finds the best move; the rest searches the played move and the best
# move alone, half each, when they differ.
FIND_SHARE = 0.5
MOST_PLAYERS = 6
# Moves whose means in the first search are this close to the most visited one's count as equally good (``_best``):
# an inaccuracy, the least difference the review tells apart.
TIE = INACCURACY

Progress = Callable[[int, int], None]  # (decisions done, decisions in all)


def mark_for(given_away: float) -> str | None:
    """The mark of a decision that gave away ``given_away`` of the chance of not being the durak."""
    if given_away >= BLUNDER:
        return "blunder"
    if given_away >= MISTAKE:
        return "mistake"
    if given_away >= INACCURACY:
        return "inaccuracy"
    return None


def move_accuracy(given_away: float) -> float:
    """lichess's accuracy of a move (0 to 100) from the chance it gave away, in points of a hundred:
    103.1668 e^(-0.04354 x) - 3.1669, clamped; 100 when nothing was given away."""
    points = max(0.0, given_away) * 100.0
    if points <= 0.0:
        return 100.0
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * points) - 3.1669))


@dataclass(frozen=True)
class JudgedDecision:
    """One action of the record judged: the played and the best move and each one's chance of not losing."""

    ply: int
    seat: int
    played: dict[str, Any]
    best: dict[str, Any]
    before: float
    after: float
    best_after: float
    forced: bool
    solved: bool

    @property
    def given_away(self) -> float:
        return 0.0 if self.forced else max(0.0, self.best_after - self.after)

    @property
    def mark(self) -> str | None:
        return None if self.forced else mark_for(self.given_away)

    def to_json(self) -> dict[str, Any]:
        return {
            "ply": self.ply, "seat": self.seat, "played": self.played, "best": self.best,
            "before": round(self.before, 4), "after": round(self.after, 4), "best_after": round(self.best_after, 4),
            "forced": self.forced, "solved": self.solved, "mark": self.mark,
        }  # fmt: skip


@dataclass(frozen=True)
class JudgedGame:
    """Every decision of a game judged, under one budget: the analysis ``review.models.GameAnalysis`` stores."""

    budget: str
    players: int
    decisions: tuple[JudgedDecision, ...]

    def accuracy(self) -> list[float | None]:
        """Each seat's accuracy (0 to 100) over its decisions with a choice; None for a seat that had none."""
        made: list[list[float]] = [[] for _ in range(self.players)]
        for decision in self.decisions:
            if not decision.forced:
                made[decision.seat].append(move_accuracy(decision.given_away))
        return [round(sum(values) / len(values), 1) if values else None for values in made]

    def to_json(self) -> dict[str, Any]:
        return {
            "version": ANALYSIS_VERSION, "budget": self.budget, "players": self.players,
            "decisions": [decision.to_json() for decision in self.decisions], "accuracy": self.accuracy(),
        }  # fmt: skip


def analysis_from_json(data: Mapping[str, Any]) -> JudgedGame:
    """The analysis ``to_json`` wrote (the marks and accuracies are computed again, not read)."""
    decisions = tuple(
        JudgedDecision(
            ply=int(item["ply"]), seat=int(item["seat"]), played=dict(item["played"]), best=dict(item["best"]),
            before=float(item["before"]), after=float(item["after"]), best_after=float(item["best_after"]),
            forced=bool(item["forced"]), solved=bool(item.get("solved", False)),
        )  # fmt: skip
        for item in data["decisions"]
    )
    return JudgedGame(budget=str(data["budget"]), players=int(data["players"]), decisions=decisions)


def analyse_record(
    record: Mapping[str, Any], *, budget: str = "default", seed: int = 0, progress: Progress | None = None,
    ended_early: bool = False,
) -> JudgedGame:
    """Every decision of a finished game's record (DESIGN.md's format), judged from its seat's information.
    ``seed`` fixes the search's random draws; ``progress`` is called after each decision. ``ended_early``: the
    game is over though its actions do not finish it (a surrender, a fall of the flag, a director's decision),
    and the decisions made until then are judged. ValueError when the record is malformed or the game is not
    over, or when the variant or the number of players is one the analysis does not cover (``analysable``)."""
    if budget not in BUDGETS:
        raise ValueError(f"unknown budget {budget!r}: choose from {', '.join(BUDGETS)}")
    if not isinstance(record, Mapping):
        raise ValueError("malformed record: a record must be a JSON object")
    try:
        loaded = load_record(dict(record))
    except (EngineError, ValueError, TypeError) as error:
        raise ValueError(f"malformed record: {error}") from None
    players = len(loaded.hands)
    reason = _not_covered(loaded.rules, players)
    if reason is not None:
        raise ValueError(f"this game cannot be analysed: {reason}")
    end = loaded.initial_state()
    for index, (_, action) in enumerate(loaded.actions):
        try:
            end = loaded.play_on(end, index)
        except IllegalAction as error:
            raise ValueError(f"malformed record: action {index} ({action}): {error}") from None
    if not end.finished and not ended_early:
        raise ValueError(f"the game is not over after its {len(loaded.actions)} actions")
    # A surrender ends the record but is no move of the game to judge (nor a fall of the flag, recorded as one);
    # the moves judged are those of the deal played, after its redeals.
    state = loaded.initial_state(len(loaded.redeals))
    moves = [(seat, action) for seat, action in loaded.actions if action.kind not in (SURRENDER, REDEAL)]
    total = decisions_to_analyse(record["actions"])
    tables = ProofTables()
    memory = GameMemory()
    seen = 0
    last: dict[int, float] = {}
    decisions: list[JudgedDecision] = []
    for ply, (seat, action) in enumerate(moves):
        decision = judge(state, seat, seen, memory.history, action, ply=ply, budget=budget, seed=seed,
                         tables=tables, previous=last.get(seat))
        decisions.append(decision)
        last[seat] = decision.after
        memory.remember(state, seat, action, seen)  # heads-up plain games only (knowledge.infers)
        play(state, seat, action)
        seen |= action.cards
        if progress is not None:
            progress(ply + 1, total)
    return JudgedGame(budget=budget, players=players, decisions=tuple(decisions))


def analysable(rules: Mapping[str, Any], players: int) -> bool:
    """Whether ``analyse_record`` covers a game of these rules and players."""
    try:
        parsed = Rules.from_dict(dict(rules))
    except (EngineError, ValueError, TypeError):
        return False
    return _not_covered(parsed, players) is None


def _not_covered(rules: Rules, players: int) -> str | None:
    """Why the analysis does not cover a game of these rules and players, or None."""
    if not 2 <= players <= min(MOST_PLAYERS, rules.max_players):
        return f"games of 2 to {min(MOST_PLAYERS, rules.max_players)} players are analysed, not {players}"
    if rules.cheating:
        return "at a cheating table the played moves include dishonest ones, which the search never weighs"
    if rules.special:
        return "the Aktobe variant's rules (hidden cards, the duel, \"one card!\") are not analysed"
    return None


def judge(
    state: State, seat: int, seen: int, history: Sequence[GameStep], played: Action, *, ply: int,
    budget: str = "default", seed: int = 0, tables: ProofTables | None = None, previous: float | None = None,
) -> JudgedDecision:
    """The decision of ``seat`` to play ``played`` in ``state`` (the true state: only its ``observe`` is read,
    as by a bot at a table), ``seen`` the cards laid face up so far, ``history`` the game's public steps
    (``GameMemory.history``). ``previous``: the seat's last chance, which a forced decision keeps."""
    observation = observe(state, seat, seen, history)
    if played not in observation.legal:
        raise ValueError(f"action {ply} ({played}) is not legal for seat {seat}")
    rng = random.Random(f"{seed}:{ply}")
    filled = observation.filled()  # heads-up in the endgame, the true state (exact_endgame); else a guess
    action_json = {"seat": seat, **played.to_json()}
    endgame = exact_endgame(filled, SOLVED_STOCK)
    positions = int(BUDGETS[budget] * ENDGAME_POSITIONS_PER_SECOND)
    if tables is None:
        tables = ProofTables()
    iterations = max(2, round(BUDGETS[budget] * ITERATIONS_PER_SECOND))
    alone = max(1, round(iterations * (1.0 - FIND_SHARE) / 2))
    if len(observation.legal) == 1:
        value = _solved_value(filled, seat, played, positions, tables) if endgame else None
        solved = value is not None
        if value is None:
            value = previous if previous is not None else _alone_value(observation, played, alone, rng.getrandbits(64))
        return JudgedDecision(ply=ply, seat=seat, played=action_json, best=action_json, before=value, after=value,
                        best_after=value, forced=True, solved=solved)
    if endgame:
        proven = _solve(filled, seat, played, observation.legal, positions, tables)
        if proven is not None:
            best, best_after, after = proven
            return JudgedDecision(ply=ply, seat=seat, played=action_json, best={"seat": seat, **best.to_json()},
                            before=best_after, after=after, best_after=best_after, forced=False, solved=True)
    possible = [observation.possible(other) for other in range(observation.players)]
    moves = tree_moves(filled, seat, possible)
    if played not in moves:
        moves.append(played)  # the played move is always weighed, even one outside the search's reduced set
    finder = SearchBot(seconds=math.inf, iterations=max(1, iterations - 2 * alone), reward=durak_rewards)
    root = _search(finder, observation, moves, random.Random(rng.getrandbits(64)))
    best = _best(root, seat, moves, played, heuristic.dear_cards(filled))
    if best == played:
        best_after = after = _mean(_child(root, seat, best))
    else:
        # Each of the two searched alone, with as many iterations and the same draws: their chances come from
        # trees of the same size, where the first search gave the best move most of its visits.
        alone_seed = rng.getrandbits(64)
        after = _alone_value(observation, played, alone, alone_seed)
        best_after = _alone_value(observation, best, alone, alone_seed)
    return JudgedDecision(ply=ply, seat=seat, played=action_json, best={"seat": seat, **best.to_json()},
                    before=best_after, after=after, best_after=best_after, forced=False, solved=False)


def _search(bot: SearchBot, observation: Observation, moves: list[Action], rng: random.Random) -> Node:
    _COLLECTOR.pause()  # as SearchBot does: the tree holds no cycles, a full collection costs more than it frees
    try:
        return bot.search(observation, moves, rng)
    finally:
        _COLLECTOR.resume()


def _best(root: Node, seat: int, moves: list[Action], played: Action, trumps: int) -> Action:
    """The best move of the first search: among the moves it cannot tell from the most visited (a mean within
    ``TIE`` on at least a quarter of its visits), the played move if it is one, else the fewest and cheapest
    cards, so that equal moves (a lead of 8C or of 8H) do not swap from one search to the next."""
    top = _child(root, seat, max(moves, key=lambda move: _child(root, seat, move).visits))
    near = [move for move in moves if 4 * _child(root, seat, move).visits >= top.visits
            and _mean(_child(root, seat, move)) >= _mean(top) - TIE]
    if played in near:
        return played
    return min(near, key=lambda move: (popcount(move.cards), sum(heuristic.card_cost(card, trumps)
                                                                  for card in cards_in(move.cards)),
                                       move.kind, move.cards, move.target))


def _alone_value(observation: Observation, move: Action, iterations: int, seed: int) -> float:
    """The chance after ``move`` from a search whose root holds that move alone."""
    bot = SearchBot(seconds=math.inf, iterations=iterations, reward=durak_rewards)
    root = _search(bot, observation, [move], random.Random(seed))
    return _mean(_child(root, observation.seat, move))


def _child(root: Node, seat: int, move: Action) -> Node:
    child = root.children.get((seat, move.kind, move.cards, move.target))
    return child if child is not None else Node()


def _mean(node: Node) -> float:
    return node.reward / node.visits if node.visits else 0.0


def _solved_value(state: State, seat: int, move: Action, positions: int, tables: ProofTables) -> float | None:
    """The exact chance after ``move``: 1 proven won, 0.5 proven drawn (not lost, and not won), 0 proven lost;
    None if not proven within ``positions``."""
    win = prove(state, seat, [move], positions, WIN, tables, solver_first_move)
    if win.move is not None:
        return 1.0
    if not win.complete:
        return None
    return _not_lose_value(state, seat, move, positions - win.nodes, tables)


def _not_lose_value(state: State, seat: int, move: Action, positions: int, tables: ProofTables) -> float | None:
    """0.5 if ``move`` (proven not to win) is proven not to lose, 0 if proven to lose, None if not proven."""
    if positions <= 0:
        return None
    draw = prove(state, seat, [move], positions, NOT_LOSE, tables, solver_first_move)
    if draw.move is not None:
        return 0.5
    return 0.0 if draw.complete else None


def _solve(state: State, seat: int, played: Action, legal: Sequence[Action], positions: int,
           tables: ProofTables) -> tuple[Action, float, float] | None:
    """The best move, its exact chance and the played move's (``_solved_value``), or None if the solver does not
    prove them within ``positions``. The played move is tried first, so it is the best whenever it is as good."""
    usual = solver_first_move(state, seat)
    order = [played] + ([usual] if usual != played else []) + [move for move in legal if move not in (played, usual)]
    win = prove(state, seat, order, positions, WIN, tables, solver_first_move)
    if win.move is not None:
        if win.move == played:
            return played, 1.0, 1.0
        after = _not_lose_value(state, seat, played, positions - win.nodes, tables)
        return (win.move, 1.0, after) if after is not None else None
    if not win.complete:
        return None
    draw = prove(state, seat, order, positions - win.nodes, NOT_LOSE, tables, solver_first_move)
    if draw.move is not None:
        return draw.move, 0.5, 0.5 if draw.move == played else 0.0
    if not draw.complete:
        return None
    return played, 0.0, 0.0  # every move loses against the best defence


def decisions_to_analyse(actions: Sequence[Mapping[str, Any]]) -> int:
    """How many moves of a record are judged: the count the progress goes up to (a surrender is none)."""
    return sum(1 for action in actions if action.get("type") not in ("surrender", "redeal"))
