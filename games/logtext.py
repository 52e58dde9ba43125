"""A game's log in words, in the reader's language: "Anna covers 6♠ with 8♠".

Entries name only cards that were laid face up or shown (the action log holds nothing else), so a log
line never tells a reader more than he saw at the table.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

SUIT_SYMBOLS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}


def rank_letters() -> dict[str, str]:
    """The court cards' letters in the active language: J, Q, K, A in English, В, Д, К, Т in Russian."""
    return {
        "J": pgettext("card rank", "J"), "Q": pgettext("card rank", "Q"),
        "K": pgettext("card rank", "K"), "A": pgettext("card rank", "A"),
    }  # fmt: skip


def suit_name(suit: str) -> str:
    """A suit ("S") in words in the active language: "spades", "пики"."""
    names = {"S": _("spades"), "C": _("clubs"), "D": _("diamonds"), "H": _("hearts")}
    return names.get(suit, suit)


def card_text(name: str, letters: dict[str, str] | None = None) -> str:
    """A card as the table writes it, in the active language: "10♠", "Q♥" ("Д♥" in Russian); `letters`: the
    court cards' letters (`rank_letters`) where the caller has read them."""
    rank = name[:-1]
    return (rank_letters() if letters is None else letters).get(rank, rank) + SUIT_SYMBOLS.get(name[-1], name[-1])


def cards_text(names: Sequence[str]) -> str:
    return " ".join(card_text(name) for name in names)


def _sentence(who: str, action: dict[str, Any], names: Sequence[str] = (), card: Callable[[str], str] = card_text) -> str:
    kind = action.get("type")
    cards = " ".join(card(name) for name in action.get("cards", []))
    if kind == "attack":
        return _("%(who)s leads %(cards)s") % {"who": who, "cards": cards}
    if kind == "throw":
        return _("%(who)s throws in %(cards)s") % {"who": who, "cards": cards}
    if kind == "transfer":
        return _("%(who)s transfers with %(cards)s") % {"who": who, "cards": cards}
    if kind == "cover":
        return _("%(who)s covers %(attack)s with %(card)s") % {
            "who": who, "attack": card(action["attack"]), "card": card(action["card"]),
        }  # fmt: skip
    if kind == "show_trump":
        return _("%(who)s shows the trump %(card)s and transfers") % {"who": who, "card": card(action["card"])}
    if kind == "accuse":
        return _("%(who)s accuses %(card)s of being played against the rules") % {
            "who": who, "card": card(action["card"]),
        }  # fmt: skip
    if kind == "announce":
        return _("%(who)s says “one card!”") % {"who": who}
    if kind == "challenge":
        target = action.get("target")
        whom = names[target] if isinstance(target, int) and 0 <= target < len(names) else str(target)
        return _("%(who)s asks %(whom)s “how many cards?”") % {"who": who, "whom": whom}
    if kind == "give":
        return _("%(who)s gives away %(card)s") % {"who": who, "card": card(action["card"])}
    if kind == "duel":
        return _("%(who)s shows the lower trump %(card)s and takes the lead") % {
            "who": who, "card": card(action["card"]),
        }  # fmt: skip
    if kind == "take":
        return _("%(who)s takes") % {"who": who}
    if kind == "pass":
        return _("%(who)s passes") % {"who": who}
    if kind == "surrender":
        return _("%(who)s surrenders") % {"who": who}
    if kind == "redeal":
        suit = str(action.get("suit"))
        return _("%(who)s has five or more %(suit)s and asks for a redeal") % {
            "who": who, "suit": f"{SUIT_SYMBOLS.get(suit, suit)} {suit_name(suit)}",
        }  # fmt: skip
    if kind == "flag":
        return _("%(who)s has run out of time") % {"who": who}
    return str(kind)


def _line(who: str, entry: dict[str, Any], names: Sequence[str] = (), card: Callable[[str], str] = card_text) -> str:
    text = _sentence(who, entry["action"], names, card)
    if entry.get("timer"):
        return _("%(text)s (time ran out)") % {"text": text}
    if entry.get("autopilot"):
        return _("%(text)s (autopilot)") % {"text": text}
    return text


# Every socket puts the same lines into words after every move; a line never changes once written.
_CACHE_SIZE = 50_000
_texts: dict[tuple[Any, ...], str] = {}


def _key(language: str, who: str, entry: dict[str, Any], names: Sequence[str]) -> tuple[Any, ...]:
    action = entry["action"]
    target = action.get("target")
    whom = names[target] if isinstance(target, int) and 0 <= target < len(names) else target
    return (
        language, who, action.get("type"), tuple(action.get("cards", ())), action.get("attack"), action.get("card"),
        whom, action.get("suit"), bool(entry.get("timer")), bool(entry.get("autopilot")),
    )  # fmt: skip


def log_lines(entries: Sequence[dict[str, Any]], names: Sequence[str], language: str) -> list[dict[str, Any]]:
    """[{"seq", "seat", "text"}] for entries {"seq", "seat", "action", "timer", "autopilot"}, in `language`."""
    whos = [names[entry["seat"]] if 0 <= entry["seat"] < len(names) else str(entry["seat"]) for entry in entries]
    keys = [_key(language, who, entry, names) for who, entry in zip(whos, entries)]
    missing = [index for index, key in enumerate(keys) if key not in _texts]
    if missing:
        if len(_texts) > _CACHE_SIZE:
            _texts.clear()
        card = _card_namer(language)
        with translation.override(language):
            for index in missing:
                _texts[keys[index]] = _line(whos[index], entries[index], names, card)
    return [
        {"seq": entry["seq"], "seat": entry["seat"], "text": _texts.get(key) or _line_now(language, who, entry, names)}
        for entry, who, key in zip(entries, whos, keys)
    ]


def _line_now(language: str, who: str, entry: dict[str, Any], names: Sequence[str]) -> str:
    with translation.override(language):
        return _line(who, entry, names)


# The court cards' letters of each language, read once: `card_text` asks the catalogue for them on every card.
_letters: dict[str, dict[str, str]] = {}


def _card_namer(language: str) -> Callable[[str], str]:
    """`card_text` in `language`, whatever language is active."""
    letters = _letters.get(language)
    if letters is None:
        with translation.override(language):
            letters = _letters[language] = rank_letters()
    return functools.partial(card_text, letters=letters)
