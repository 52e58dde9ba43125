"""What a seat or a spectator may see of a game, as JSON-ready dicts.

A seat sees its own hand, everyone's card counts, the table, the face-up trump card while it lies
under the stock, trumps shown to transfer, the stock and discard counts, who attacks, defends, throws
in and is out. Never another hand, the stock's order or the discard pile (RULES.md; DESIGN.md).
"""

from __future__ import annotations

from typing import Any

from .cards import card_name, names
from .play import legal_actions, throwers
from .state import State


def public_view(state: State) -> dict[str, Any]:
    thrower_mask = throwers(state) if state.attack else 0
    shown = state.shown
    return {
        "players": state.n,
        "rules": state.rules.to_dict(),
        "hand_counts": [hand.bit_count() for hand in state.hands],
        "table": [
            {"attack": card_name(a), "cover": card_name(c) if c >= 0 else None, "by": by}
            for a, c, by in zip(state.attack, state.cover, state.attack_by)
        ],
        "trump": "SCDH"[state.trump] if state.trump >= 0 else None,
        # The face-up card is public while it lies under the stock; once drawn it is a hand card.
        "trump_card": card_name(state.trump_card) if state.stock and state.trump_card >= 0 else None,
        "stock": len(state.stock),
        "discard": state.discard_count,
        "attacker": state.attacker,
        "defender": state.defender,
        "limit": state.limit,
        "taken": state.taken,
        "passed": [seat for seat in range(state.n) if state.passed >> seat & 1],
        "throwers": [seat for seat in range(state.n) if thrower_mask >> seat & 1],
        "shown_trump": [seat for seat in range(state.n) if shown >> seat & 1],
        "out": list(state.out),
        "teams": [list(team) for team in state.teams] if state.teams else None,
        "finished": state.finished,
        "result": state.result,
    }


def seat_view(state: State, seat: int) -> dict[str, Any]:
    view = public_view(state)
    view["seat"] = seat
    view["hand"] = names(state.hands[seat])
    view["legal"] = [action.to_json() for action in legal_actions(state, seat)]
    return view
