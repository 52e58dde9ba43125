"""The rules of Durak as a pure library: no Django, no I/O (STYLE.md 1).

``new_game`` / ``deal_game`` build a state, ``legal_actions`` lists a seat's moves, ``apply`` returns the
next state or raises ``IllegalAction``; ``seat_view`` and ``public_view`` are what a seat or a spectator
may see; records load, dump and replay games.
"""

from .actions import Action, action_from_json
from .errors import EngineError, IllegalAction, MalformedRecord
from .deal import Deal, commitment, deal, first_attacker_for, redeal_allowed, verify_commitment
from .play import actors, apply, is_legal, legal_actions, new_game, play, settlement, throwers
from .views import public_view, seat_view
from .records import Record, Replay, load_record, replay_json, replay_record, replay_text
from .rules import Rules, preset_rules
from .state import State

__all__ = [
    "Action", "Deal", "EngineError", "IllegalAction", "MalformedRecord", "Record", "Replay", "Rules", "State",
    "action_from_json", "apply", "legal_actions", "load_record", "new_game", "play", "preset_rules",
    "replay_json", "replay_record", "replay_text", "settlement", "throwers", "actors", "is_legal",
    "commitment", "deal", "first_attacker_for", "redeal_allowed", "verify_commitment", "public_view",
    "seat_view",
]
