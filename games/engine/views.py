"""What a seat or a spectator may see of a game, as JSON-ready dicts.

A seat sees its own hand, everyone's card counts, the table, the face-up trump card while it lies
under the stock, trumps shown to transfer, the stock and discard counts, who attacks, defends, throws
in and is out. Never another hand, the stock's order or the discard pile (RULES.md; DESIGN.md), and
never a hidden card still face down (Aktobe), not even its owner's own.
"""

from __future__ import annotations

from typing import Any

from .cards import RANKS, card_name, names
from .legal import legal_actions
from .state import State
from .table import throwers


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
        "result": None if state.result is None else state.result.to_json(),
        **(_aktobe_view(state) if state.special or state.rules.epaulette_ladder else {}),
    }


def _aktobe_view(state: State) -> dict[str, Any]:
    """What everyone sees of Aktobe's rules (docs/aktobe.md): who still has a hidden card face down (never
    which card, not even its owner, until it is turned up into his hand), the card under the trump once
    turned up, who said "one card!", the cards still to be given, whether the duel for the first lead is on
    and whether an epaulette lead must be taken; in a ladder series each seat's epaulette rank."""
    rules = state.rules
    view: dict[str, Any] = {}
    if rules.hidden_cards:
        view["hidden"] = [state.face_down(seat) >= 0 for seat in range(state.n)]
        view["hidden_trump"] = card_name(state.hidden_trump) if not state.stock and state.hidden_trump >= 0 else None
    if rules.one_card:
        view["announced"] = [seat for seat in range(state.n) if state.announced >> seat & 1]
        view["forgot"] = [seat for seat in range(state.n) if state.forgot >> seat & 1]
    if rules.one_card or rules.trump_duel:
        view["owed"] = [{"from": giver, "to": receiver} for giver, receiver in state.owed_pairs()]
    if rules.trump_duel:
        view["opening"] = state.opening
        view["duel_open"] = state.duel_open
    if rules.no_attack_with_epaulettes:
        view["forced_take"] = state.forced_take
    if rules.epaulette_ladder or rules.no_attack_with_epaulettes:
        view["epaulette_ranks"] = [RANKS[rank] for rank in state.epaulette_ranks]
        view["queen"] = card_name(state.queen) if state.queen >= 0 else None
    return view


def seat_view(state: State, seat: int, public: dict[str, Any] | None = None) -> dict[str, Any]:
    """The seat's view; `public`: the state's `public_view` where the caller has it (shared, not changed)."""
    view = dict(public) if public is not None else public_view(state)
    view["seat"] = seat
    view["hand"] = names(state.hands[seat])
    if state.hidden_cards:
        # His hidden card once turned up, while it is in his hand (he knows which of his cards it is).
        card = state.hidden[seat]
        in_hand = card >= 0 and state.hidden_up >> seat & 1 and state.hands[seat] >> card & 1
        view["hidden_card"] = card_name(card) if in_hand else None
    view["legal"] = [action.to_json() for action in legal_actions(state, seat)]
    return view
