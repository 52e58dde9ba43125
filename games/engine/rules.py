"""The rule set of a table: every option of RULES.md as data, with its default, and the presets."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from .cards import DECK_SIZES
from .errors import MalformedRecord

THROW_IN = ("all", "neighbours")
FIRST_BOUT_LIMITS = (6, 5)
TEAM_MODES = (None, "2v2", "3v3")
NEXT_GAME_FIRST = ("lowest_trump", "under_fool")
JOKER_BEATS = ("all", "same_colour")
PRESETS = ("podkidnoy", "perevodnoy")
# Options of RULES.md that belong to later work (the Aktobe preset, the epaulette ladder): a rule set
# that asks for them is refused rather than silently played by other rules.
UNSUPPORTED_PRESETS = ("aktobe",)
UNSUPPORTED_OPTIONS = ("epaulette_ladder", "no_attack_with_epaulettes")


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

    def __post_init__(self) -> None:
        problems = []
        if self.deck not in DECK_SIZES or self.deck == 54:
            problems.append(f"deck must be 24, 36 or 52, not {self.deck!r}")
        for name in ("transfer", "transfer_by_showing_trump", "cheating", "redeal_five_same_suit"):
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
        if problems:
            raise MalformedRecord("; ".join(problems))

    @property
    def max_players(self) -> int:
        return self.deck // 6

    @property
    def team_size(self) -> int:
        return {"2v2": 2, "3v3": 3}.get(self.teams or "", 0)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

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
        for name in UNSUPPORTED_OPTIONS:
            if options.pop(name, False):
                raise MalformedRecord(f"option {name} is not supported by this engine yet")
        known = {field.name for field in fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise MalformedRecord(f"unknown rule option: {', '.join(unknown)}")
        for name, value in options.items():
            expected = _OPTION_TYPES[name]
            if not isinstance(value, expected) or (isinstance(value, bool) and bool not in expected):
                raise MalformedRecord(f"{name} must be {_TYPE_WORDS[name]}, not {value!r}")
        return replace(base, **options)


# Checked before a Rules is built: compiled with mypyc, a wrong type would otherwise fail with a
# TypeError that does not name the option.
_OPTION_TYPES: dict[str, tuple[type, ...]] = {
    "deck": (int,), "transfer": (bool,), "transfer_by_showing_trump": (bool,), "throw_in": (str,),
    "first_bout_limit": (int,), "teams": (str, type(None)), "cheating": (bool,), "next_game_first": (str,),
    "redeal_five_same_suit": (bool,), "joker_beats": (str,),
}
_TYPE_WORDS = {
    "deck": "24, 36 or 52", "transfer": "true or false", "transfer_by_showing_trump": "true or false",
    "throw_in": "all or neighbours", "first_bout_limit": "6 or 5", "teams": "null, 2v2 or 3v3",
    "cheating": "true or false", "next_game_first": "lowest_trump or under_fool",
    "redeal_five_same_suit": "true or false", "joker_beats": "all or same_colour",
}


def preset_rules(name: object) -> Rules:
    """``podkidnoy`` turns transfer off and ``perevodnoy`` on; every other option keeps its default."""
    if name == "podkidnoy":
        return Rules(transfer=False)
    if name == "perevodnoy":
        return Rules(transfer=True)
    if name in UNSUPPORTED_PRESETS:
        raise MalformedRecord(f"preset {name} is not supported by this engine yet")
    raise MalformedRecord(f"unknown preset: {name!r}")
