"""The rule set of a table: every option of RULES.md as data, with its default, and the presets.

The Aktobe variant (RULES.md, "The Aktobe variant"; seed 004) is a preset over options of its own, one for
each of its rules, so that a record or a table may take the preset and change one rule beside it
(``{"preset": "aktobe", "joker_beats": "same_colour"}``). docs/aktobe.md says how each is played.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from .cards import DECK_SIZES
from .errors import MalformedRecord

THROW_IN = ("all", "neighbours")
FIRST_BOUT_LIMITS = (6, 5)
TEAM_MODES = (None, "2v2", "3v3")
NEXT_GAME_FIRST = ("lowest_trump", "under_fool")
JOKER_BEATS = ("all", "same_colour")
PRESETS = ("podkidnoy", "perevodnoy", "aktobe")
# RULES.md, Cards: 52 and 54 cards seat at most 8 players.
MOST_PLAYERS = 8
# Each player's hidden card and the card under the face-up trump come out of the deck too.
HIDDEN_CARDS_A_PLAYER = 1


@dataclass(frozen=True, slots=True)
class Rules:
    deck: int = 36
    transfer: bool = False
    transfer_by_showing_trump: bool = False
    throw_in: str = "all"
    first_bout_limit: int = 6
    teams: str | None = None
    cheating: bool = False
    next_game_first: str = "lowest_trump"
    redeal_five_same_suit: bool = False
    joker_beats: str = "all"
    # Aktobe (RULES.md, The Aktobe variant): each player's hidden card, the hidden card under the face-up trump
    # card and the trump it names once the stock runs out.
    hidden_cards: bool = False
    # A transfer may give the next player more attack cards than he holds: he covers what he can, takes the rest.
    transfer_beyond_hand: bool = False
    # After a take the throwers may add any number of matching cards, whatever the limit.
    unlimited_throw_in_on_take: bool = False
    # "One card!": with the stock empty, a player down to one card announces it or may be asked and penalised.
    one_card: bool = False
    # The lowest-trump duel: any trump holder may make the game's first lead; a lower trump shown takes it over.
    trump_duel: bool = False
    # Epaulettes (seed 000): a series climbing 6, 7, ..., A, then the chosen queen; epaulette leads must be taken.
    epaulette_ladder: bool = False
    no_attack_with_epaulettes: bool = False

    def __post_init__(self) -> None:
        problems = []
        if self.deck not in DECK_SIZES:
            problems.append(f"deck must be 24, 36, 52 or 54, not {self.deck!r}")
        for name in _BOOLEAN_OPTIONS:
            if not isinstance(getattr(self, name), bool):
                problems.append(f"{name} must be true or false")
        if self.throw_in not in THROW_IN:
            problems.append(f"throw_in must be one of {', '.join(THROW_IN)}")
        if self.first_bout_limit not in FIRST_BOUT_LIMITS or isinstance(self.first_bout_limit, bool):
            problems.append("first_bout_limit must be 6 or 5")
        if self.teams not in TEAM_MODES:
            problems.append("teams must be null, 2v2 or 3v3")
        if self.next_game_first not in NEXT_GAME_FIRST:
            problems.append(f"next_game_first must be one of {', '.join(NEXT_GAME_FIRST)}")
        if self.joker_beats not in JOKER_BEATS:
            problems.append(f"joker_beats must be one of {', '.join(JOKER_BEATS)}")
        if self.transfer_by_showing_trump and not self.transfer:
            problems.append("transfer_by_showing_trump needs transfer")
        if self.transfer_beyond_hand and not self.transfer:
            problems.append("transfer_beyond_hand needs transfer")
        if problems:
            raise MalformedRecord("; ".join(problems))

    @property
    def max_players(self) -> int:
        """Six cards a player (RULES.md, Cards: 24 seats 4, 36 seats 6, 52 and 54 seat 8); with hidden cards
        seven a player and two more under the face-up trump, which leaves at least the face-up card."""
        if self.hidden_cards:
            return min(MOST_PLAYERS, (self.deck - 2) // (6 + HIDDEN_CARDS_A_PLAYER))
        return min(MOST_PLAYERS, self.deck // 6)

    @property
    def special(self) -> bool:
        """Whether any rule off the classic paths is on: the engine checks it once and keeps its costs off
        podkidnoy and perevodnoy."""
        return (
            self.hidden_cards or self.transfer_beyond_hand or self.unlimited_throw_in_on_take or self.one_card
            or self.trump_duel or self.no_attack_with_epaulettes
        )

    @property
    def preset(self) -> str | None:
        """The preset these rules are exactly, if any (for labels; records keep their own ``rules``)."""
        for name in PRESETS:
            if preset_rules(name) == self:
                return name
        return None

    @property
    def team_size(self) -> int:
        return {"2v2": 2, "3v3": 3}.get(self.teams or "", 0)

    def to_dict(self) -> dict[str, Any]:
        # Every option is a plain value, so the shallow dict is asdict's at a tenth of its cost (every view of
        # every move carries the rules).
        return {name: getattr(self, name) for name in _OPTION_NAMES}

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """Rules from a record's ``rules`` object: a preset, then options beside it override."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise MalformedRecord("rules must be an object")
        options = dict(data)
        preset = options.pop("preset", None)
        base = preset_rules(preset) if preset is not None else cls()
        known = {field.name for field in fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise MalformedRecord(f"unknown rule option: {', '.join(unknown)}")
        for name, value in options.items():
            expected = _OPTION_TYPES[name]
            if not isinstance(value, expected) or (isinstance(value, bool) and bool not in expected):
                raise MalformedRecord(f"{name} must be {_TYPE_WORDS[name]}, not {value!r}")
        return replace(base, **options)


# The options in their order (a record's `rules` object lists them so).
_OPTION_NAMES = tuple(field.name for field in fields(Rules))

_BOOLEAN_OPTIONS = (
    "transfer", "transfer_by_showing_trump", "cheating", "redeal_five_same_suit", "hidden_cards",
    "transfer_beyond_hand", "unlimited_throw_in_on_take", "one_card", "trump_duel", "epaulette_ladder",
    "no_attack_with_epaulettes",
)

# Checked before a Rules is built: compiled with mypyc, a wrong type would otherwise fail with a
# TypeError that does not name the option.
_OPTION_TYPES: dict[str, tuple[type, ...]] = {
    "deck": (int,), "transfer": (bool,), "transfer_by_showing_trump": (bool,), "throw_in": (str,),
    "first_bout_limit": (int,), "teams": (str, type(None)), "cheating": (bool,), "next_game_first": (str,),
    "redeal_five_same_suit": (bool,), "joker_beats": (str,),
    **{name: (bool,) for name in _BOOLEAN_OPTIONS},
}
_TYPE_WORDS = {
    **{name: "true or false" for name in _BOOLEAN_OPTIONS},
    "deck": "24, 36, 52 or 54", "transfer": "true or false", "transfer_by_showing_trump": "true or false",
    "throw_in": "all or neighbours", "first_bout_limit": "6 or 5", "teams": "null, 2v2 or 3v3",
    "cheating": "true or false", "next_game_first": "lowest_trump or under_fool",
    "redeal_five_same_suit": "true or false", "joker_beats": "all or same_colour",
}


def preset_rules(name: object) -> Rules:
    """``podkidnoy`` turns transfer off and ``perevodnoy`` on; every other option keeps its default.

    ``aktobe`` (RULES.md, The Aktobe variant): 54 cards, transfers also beyond the next player's hand, throw-in
    by the defender's neighbours only and without limit after a take, the hidden cards, "one card!" and the
    lowest-trump duel; jokers beat every card (``joker_beats`` may be changed beside the preset)."""
    if name == "podkidnoy":
        return Rules(transfer=False)
    if name == "perevodnoy":
        return Rules(transfer=True)
    if name == "aktobe":
        return AKTOBE
    raise MalformedRecord(f"unknown preset: {name!r}")


AKTOBE = Rules(
    deck=54, transfer=True, throw_in="neighbours", hidden_cards=True, transfer_beyond_hand=True,
    unlimited_throw_in_on_take=True, one_card=True, trump_duel=True,
)
