"""What decided each board of a round, stored with its pairing for the director's round page: the pure core's
reasons (tournaments.pairing.dutch_explain) as JSON, names in place of entrant keys (a name needs no translation;
the sentences around it are written in the reader's language by tournaments.templatetags.explanation_tags)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tournaments.models import Entrant
from tournaments.pairing.dutch_explain import BoardReasons
from tournaments.services._common import _subject


def explanation_json(reasons: BoardReasons, by_key: Mapping[str, Entrant]) -> dict[str, Any]:
    """One board's reasons as its ``Pairing.explanation``; {} when there is nothing to say."""
    if not reasons.facts:
        return {}

    def name(key: str | None) -> str | None:
        if key is None:
            return None
        entrant = by_key.get(key)
        return _subject(entrant) if entrant is not None else key

    facts = []
    for fact in reasons.facts:
        row: dict[str, Any] = {"code": fact.code, "article": fact.article}
        for field, value in (("who", name(fact.who)), ("other", name(fact.other)), ("value", fact.value),
                             ("place", fact.place), ("to", fact.to), ("criterion", fact.criterion)):  # fmt: skip
            if value is not None:
                row[field] = value
        facts.append(row)
    return {"bracket": reasons.bracket, "facts": facts}


def explanations_json(reasons: Sequence[BoardReasons] | None, by_key: Mapping[str, Entrant]) -> list[dict[str, Any]]:
    """Every board's (in the boards' order); empty dicts when the engine says nothing."""
    return [explanation_json(board, by_key) for board in reasons] if reasons is not None else []
