"""A game's log in words, in the reader's language: "Anna covers 6♠ with 8♠".

Entries name only cards that were laid face up or shown (the action log holds nothing else), so a log
line never tells a reader more than he saw at the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

SUIT_SYMBOLS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}


def card_text(name: str) -> str:
    return name[:-1] + SUIT_SYMBOLS.get(name[-1], name[-1])


def cards_text(names: Sequence[str]) -> str:
    return " ".join(card_text(name) for name in names)


def _sentence(who: str, action: dict[str, Any]) -> str:
    kind = action.get("type")
    cards = cards_text(action.get("cards", []))
    if kind == "attack":
        return _("%(who)s leads %(cards)s") % {"who": who, "cards": cards}
    if kind == "throw":
        return _("%(who)s throws in %(cards)s") % {"who": who, "cards": cards}
    if kind == "transfer":
        return _("%(who)s transfers with %(cards)s") % {"who": who, "cards": cards}
    if kind == "cover":
        return _("%(who)s covers %(attack)s with %(card)s") % {
            "who": who, "attack": card_text(action["attack"]), "card": card_text(action["card"]),
        }  # fmt: skip
    if kind == "show_trump":
        return _("%(who)s shows the trump %(card)s and transfers") % {"who": who, "card": card_text(action["card"])}
    if kind == "accuse":
        return _("%(who)s accuses %(card)s of being played against the rules") % {
            "who": who, "card": card_text(action["card"]),
        }  # fmt: skip
    if kind == "take":
        return _("%(who)s takes") % {"who": who}
    if kind == "pass":
        return _("%(who)s passes") % {"who": who}
    if kind == "surrender":
        return _("%(who)s surrenders") % {"who": who}
    return str(kind)


def log_lines(entries: Sequence[dict[str, Any]], names: Sequence[str], language: str) -> list[dict[str, Any]]:
    """[{"seq", "seat", "text"}] for entries {"seq", "seat", "action", "timer"}, in `language`."""
    lines = []
    with translation.override(language):
        for entry in entries:
            seat = entry["seat"]
            who = names[seat] if 0 <= seat < len(names) else str(seat)
            text = _sentence(who, entry["action"])
            if entry.get("timer"):
                text = _("%(text)s (time ran out)") % {"text": text}
            elif entry.get("autopilot"):
                text = _("%(text)s (autopilot)") % {"text": text}
            lines.append({"seq": entry["seq"], "seat": seat, "text": text})
    return lines
