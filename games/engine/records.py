"""Game records (DESIGN.md, "The game record"): load and validate, dump, and replay to the output
that ``manage.py replay`` prints."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .actions import CHALLENGE, REDEAL, Action, action_from_json
from .cards import LOWEST_RANK, card_name, deck_mask, names, parse_card, parse_suit
from .deal import redeal_refusal
from .errors import EngineError, IllegalAction, MalformedRecord
from .play import play
from .rules import AKTOBE, Rules
from .series import Series, series_from_json
from .start import new_game
from .state import State

EXIT_OK, EXIT_ILLEGAL, EXIT_MALFORMED = 0, 1, 2


@dataclass
class RecordDeal:
    """A deal that replaced the one before it (a ``redeal`` action): the fields of the record's own deal."""

    hands: list[int]
    stock: list[int]
    trump: int | None = None
    hidden: list[int] | None = None
    hidden_trump: int = -1

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"hands": [names(hand) for hand in self.hands],
                                "stock": [card_name(card) for card in self.stock]}  # fmt: skip
        if not self.stock and self.trump is not None and self.trump >= 0 and self.hidden_trump < 0:
            data["trump"] = "SCDH"[self.trump]
        if self.hidden is not None:
            data["hidden"] = [card_name(card) if card >= 0 else None for card in self.hidden]
        if self.hidden_trump >= 0:
            data["hidden_trump"] = card_name(self.hidden_trump)
        return data


@dataclass
class Record:
    """A parsed record: the rule set, the deal and the action log, each checked for shape.

    A game redealt before its first move (RULES.md, redeal_five_same_suit) keeps its first deal in ``hands``
    and ``stock`` and each deal that replaced it, in order, in ``redeals``; the log opens with one ``redeal``
    action for each. An extension of DESIGN.md's record: a record without redeals is as it always was."""

    rules: Rules
    hands: list[int]
    stock: list[int]
    trump: int | None = None
    first_attacker: int | None = None
    teams: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    stake: int = 0
    actions: list[tuple[int, Action]] = field(default_factory=list)
    rules_json: dict[str, Any] = field(default_factory=dict)
    hidden: list[int] | None = None  # Aktobe: each seat's hidden card (-1: none, or turned up already)
    hidden_trump: int = -1           # Aktobe: the card under the face-up trump card
    series: Series | None = None     # the epaulette ladder's state before this game
    redeals: list[RecordDeal] = field(default_factory=list)

    def deals(self) -> list[RecordDeal]:
        """Every deal of the game in order: the first, then those that replaced it."""
        first = RecordDeal(self.hands, self.stock, self.trump, self.hidden, self.hidden_trump)
        return [first, *self.redeals]

    def initial_state(self, deal: int = 0) -> State:
        """The state before the first move of deal number `deal` (0: the record's own)."""
        series, dealt = self.series, self.deals()[deal]
        return new_game(
            self.rules, dealt.hands, dealt.stock, trump=dealt.trump, first_attacker=self.first_attacker,
            teams=self.teams, stake=self.stake, hidden=dealt.hidden, hidden_trump=dealt.hidden_trump,
            epaulette_ranks=series.ranks() if series is not None else None,
            queen=series.queen if series is not None else -1,
        )

    def play_on(self, state: State, index: int) -> State:
        """The state after action `index` of the log, played on `state`, the state before it: a move is
        played on `state` itself; a redeal, checked, gives the next deal's first state."""
        seat, action = self.actions[index]
        if action.kind != REDEAL:
            play(state, seat, action)
            return state
        moved = any(earlier.kind != REDEAL for _, earlier in self.actions[:index])
        refusal = redeal_refusal(self.rules, state.hands[seat], action.target, moved)
        if refusal is not None:
            raise IllegalAction(refusal)
        return self.initial_state(index + 1)  # not moved: every action before this one was a redeal

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "rules": self.rules_json or _rules_json(self.rules), "players": len(self.hands),
            **self.deals()[0].to_json(),
        }  # fmt: skip
        if self.series is not None:
            data["series"] = self.series.to_json()
        if self.first_attacker is not None:
            data["first_attacker"] = self.first_attacker
        if self.teams is not None:
            data["teams"] = [list(team) for team in self.teams]
        if self.stake:
            data["stake"] = self.stake
        if self.redeals:
            data["redeals"] = [dealt.to_json() for dealt in self.redeals]
        data["actions"] = [{"seat": seat, **action.to_json()} for seat, action in self.actions]
        return data


def _rules_json(rules: Rules) -> dict[str, Any]:
    """Only the options that differ from the defaults, as people write them; an Aktobe rule set as the preset
    and the options that differ from it."""
    base, data = Rules(), {}
    if rules.deck == 54 and rules.hidden_cards:
        base, data = AKTOBE, {"preset": "aktobe"}
    default = base.to_dict()
    return {**data, **{key: value for key, value in rules.to_dict().items() if default[key] != value}}


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedRecord(f"{what} must be a whole number")
    return value


def _cards(value: object, what: str, allowed: int) -> list[int]:
    if not isinstance(value, list):
        raise MalformedRecord(f"{what} must be a list of cards")
    cards = []
    for text in value:
        try:
            card = parse_card(text)
        except ValueError as error:
            raise MalformedRecord(f"{what}: {error}") from None
        if not allowed >> card & 1:
            raise MalformedRecord(f"{what}: {card_name(card)} is not in this deck")
        cards.append(card)
    return cards


def load_record(data: object) -> Record:
    """Check a record's shape and build it; MalformedRecord says what is wrong."""
    if not isinstance(data, dict):
        raise MalformedRecord("a record must be a JSON object")
    rules_json = data.get("rules", {})
    rules = Rules.from_dict(rules_json)
    deck = deck_mask(rules.deck)
    players = _int(data.get("players"), "players")
    if not 2 <= players <= rules.max_players:
        raise MalformedRecord(f"a {rules.deck}-card game takes 2 to {rules.max_players} players, not {players}")
    hands = _hands(data.get("hands"), players, deck)
    stock = _cards(data.get("stock", []), "stock", deck)
    trump = _trump(data.get("trump"))
    first_attacker = _first_attacker(data.get("first_attacker"), players)
    teams = _teams(data.get("teams"))
    hidden, hidden_trump = _hidden_cards(data, rules, players, deck)
    series = _series(data.get("series"), rules, players)
    stake = _int(data.get("stake", 0), "stake")
    if stake < 0:
        raise MalformedRecord("stake cannot be negative")
    actions = _actions(data.get("actions", []), players, deck)
    redeals = _redeals(data.get("redeals", []), rules, players, deck)
    asked = sum(1 for _, action in actions if action.kind == REDEAL)
    if len(redeals) != asked:
        raise MalformedRecord(f"redeals lists {len(redeals)} deals, but the actions ask for {asked} redeals")
    record = Record(
        rules=rules, hands=hands, stock=stock, trump=trump, first_attacker=first_attacker,
        teams=teams, stake=stake, actions=actions,
        rules_json=rules_json if isinstance(rules_json, dict) else {},
        hidden=hidden, hidden_trump=hidden_trump, series=series, redeals=redeals,
    )
    for number in range(len(redeals) + 1):
        record.initial_state(number)  # checks each deal: a card twice, a seat without cards, no trump
    return record


def _redeals(raw: object, rules: Rules, players: int, deck: int) -> list[RecordDeal]:
    """The deals that replaced the first, each with the fields of a record's own deal."""
    if not isinstance(raw, list):
        raise MalformedRecord("redeals must be a list of deals")
    redeals = []
    for index, dealt in enumerate(raw):
        if not isinstance(dealt, dict):
            raise MalformedRecord(f"redeal {index}: a deal must be an object")
        try:
            hidden, hidden_trump = _hidden_cards(dealt, rules, players, deck)
            redeals.append(RecordDeal(
                hands=_hands(dealt.get("hands"), players, deck), stock=_cards(dealt.get("stock", []), "stock", deck),
                trump=_trump(dealt.get("trump")), hidden=hidden, hidden_trump=hidden_trump,
            ))  # fmt: skip
        except MalformedRecord as error:
            raise MalformedRecord(f"redeal {index}: {error}") from None
    return redeals


def played_deal(data: dict[str, Any]) -> dict[str, Any]:
    """Of a record's JSON, the deal being played: the last of its ``redeals``, or the record's own deal."""
    redeals = data.get("redeals")
    return redeals[-1] if isinstance(redeals, list) and redeals else data


def _hands(raw_hands: object, players: int, deck: int) -> list[int]:
    """The dealt hands, one list of cards a seat, as masks; a card listed twice in a hand is refused here."""
    if not isinstance(raw_hands, list) or len(raw_hands) != players:
        raise MalformedRecord(f"hands must be a list of {players} hands")
    hands = []
    for seat, raw in enumerate(raw_hands):
        cards = _cards(raw, f"hand of seat {seat}", deck)
        mask = 0
        for card in cards:
            if mask >> card & 1:
                raise MalformedRecord(f"card listed twice: {card_name(card)}")
            mask |= 1 << card
        hands.append(mask)
    return hands


def _trump(raw: object) -> int | None:
    """The trump suit a record may name (without it the deal's last card decides)."""
    if raw is None:
        return None
    try:
        return parse_suit(raw)
    except ValueError as error:
        raise MalformedRecord(str(error)) from None


def _first_attacker(raw: object, players: int) -> int | None:
    if raw is None:
        return None
    first_attacker = _int(raw, "first_attacker")
    if not 0 <= first_attacker < players:
        raise MalformedRecord(f"first_attacker: no such seat {first_attacker}")
    return first_attacker


def _teams(raw_teams: object) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    if raw_teams is None:
        return None
    if not isinstance(raw_teams, list) or len(raw_teams) != 2 or not all(isinstance(t, list) for t in raw_teams):
        raise MalformedRecord("teams must be two lists of seats")
    return (
        tuple(_int(s, "a team's seat") for s in raw_teams[0]),
        tuple(_int(s, "a team's seat") for s in raw_teams[1]),
    )


def _series(raw: object, rules: Rules, players: int) -> Series | None:
    if raw is None:
        return None
    if not rules.epaulette_ladder:
        raise MalformedRecord("series needs the epaulette_ladder rule")
    return series_from_json(raw, players)


def _actions(raw_actions: object, players: int, deck: int) -> list[tuple[int, Action]]:
    """The moves in order as (seat, action); an error names the action's index."""
    if not isinstance(raw_actions, list):
        raise MalformedRecord("actions must be a list")
    actions = []
    for index, raw in enumerate(raw_actions):
        try:
            actions.append(_seat_action(raw, players, deck))
        except MalformedRecord as error:
            raise MalformedRecord(f"action {index}: {error}") from None
    return actions


def _seat_action(raw: object, players: int, deck: int) -> tuple[int, Action]:
    if not isinstance(raw, dict):
        raise MalformedRecord("an action must be an object")
    seat = _int(raw.get("seat"), "seat")
    if not 0 <= seat < players:
        raise MalformedRecord(f"no such seat: {seat}")
    action = action_from_json(raw)
    if action.cards & ~deck:
        raise MalformedRecord(f"{' '.join(names(action.cards & ~deck))} is not in this deck")
    if action.kind == CHALLENGE:
        if action.target >= players:
            raise MalformedRecord(f"no such seat: {action.target}")
    elif action.kind != REDEAL and action.target >= 0 and not deck >> action.target & 1:
        raise MalformedRecord(f"{card_name(action.target)} is not in this deck")
    return seat, action


def _hidden_cards(data: dict[str, Any], rules: Rules, players: int, deck: int) -> tuple[list[int] | None, int]:
    """An Aktobe record's ``hidden`` (a card or null for each seat) and ``hidden_trump`` (DESIGN.md)."""
    raw_hidden, raw_trump = data.get("hidden"), data.get("hidden_trump")
    if not rules.hidden_cards:
        if raw_hidden is not None or raw_trump is not None:
            raise MalformedRecord("hidden cards are dealt only under the hidden_cards rule (preset aktobe)")
        return None, -1
    if not isinstance(raw_hidden, list) or len(raw_hidden) != players:
        raise MalformedRecord(f"hidden must list one card (or null) for each of the {players} seats")
    hidden = [-1 if raw is None else _cards([raw], "hidden", deck)[0] for raw in raw_hidden]
    if raw_trump is None:
        if data.get("stock"):
            raise MalformedRecord("hidden_trump, the card under the face-up trump card, is missing")
        return hidden, -1
    return hidden, _cards([raw_trump], "hidden_trump", deck)[0]


@dataclass
class Replay:
    """What replaying a record gives: the state reached, or the first problem."""

    ok: bool
    state: State | None = None
    index: int | None = None
    error: str | None = None
    exit_status: int = EXIT_OK

    def to_json(self) -> dict[str, Any]:
        if not self.ok:
            return {"ok": False, "index": self.index, "error": self.error}
        assert self.state is not None
        return {
            "ok": True,
            "finished": self.state.finished,
            "result": None if self.state.result is None else self.state.result.to_json(),
            "state": self.state.to_json(),
        }


def replay_record(record: Record) -> Replay:
    state = record.initial_state()
    for index, (_, action) in enumerate(record.actions):
        try:
            state = record.play_on(state, index)
        except IllegalAction as error:
            return Replay(ok=False, index=index, error=f"{action}: {error}", exit_status=EXIT_ILLEGAL)
    return Replay(ok=True, state=state)


def replay_json(data: object) -> Replay:
    """Replay a record given as parsed JSON; never raises for bad input."""
    try:
        record = load_record(data)
    except EngineError as error:
        return Replay(ok=False, index=None, error=str(error), exit_status=EXIT_MALFORMED)
    return replay_record(record)


def replay_text(text: str) -> Replay:
    try:
        data = json.loads(text)
    except ValueError as error:
        return Replay(ok=False, index=None, error=f"not JSON: {error}", exit_status=EXIT_MALFORMED)
    except RecursionError:
        return Replay(ok=False, index=None, error="not JSON: nested too deeply", exit_status=EXIT_MALFORMED)
    return replay_json(data)


def lowest_rank_name(deck: int) -> str:
    return ("2", "3", "4", "5", "6", "7", "8", "9")[LOWEST_RANK[deck]]
