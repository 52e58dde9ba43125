"""The rules of Durak as a pure library: no Django, no I/O (STYLE.md 1).

``new_game`` and ``deal`` build a state, ``legal_actions`` lists a seat's moves, ``apply`` returns the
next state or raises ``IllegalAction``; ``seat_view`` and ``public_view`` are what a seat or a spectator
may see; records load, dump and replay games.
"""

from ._compiled import check_fresh

# Before any submodule loads: a compiled engine built from older sources must not run in their place.
check_fresh()

from .acting import MAY, NEEDED, PROMPTED, WAITED, actors, movers, who_acts  # noqa: E402
from .actions import Action, action_from_json  # noqa: E402
from .deal import (  # noqa: E402
    Deal, commitment, deal, first_attacker_for, redeal_allowed, redeal_refusal, redeal_suit, verify_commitment,
)
from .end import places, settlement  # noqa: E402
from .errors import EngineError, IllegalAction, MalformedRecord  # noqa: E402
from .legal import legal_actions  # noqa: E402
from .play import apply, is_legal, play, play_trusted  # noqa: E402
from .records import (  # noqa: E402
    Record, RecordDeal, Replay, load_record, played_deal, replay_json, replay_record, replay_text,
)
from .result import Epaulettes, GameResult  # noqa: E402
from .rules import Rules, preset_rules  # noqa: E402
from .series import Series, series_after_game, series_start  # noqa: E402
from .start import new_game  # noqa: E402
from .state import State  # noqa: E402
from .table import throwers  # noqa: E402
from .views import public_view, seat_view  # noqa: E402

__all__ = [
    "MAY", "NEEDED", "PROMPTED", "WAITED", "Action", "Deal", "EngineError", "Epaulettes", "GameResult", "IllegalAction", "MalformedRecord", "Record", "Replay", "Rules", "State",
    "action_from_json", "actors", "apply", "commitment", "deal", "first_attacker_for", "is_legal",
    "legal_actions", "load_record", "movers", "played_deal", "RecordDeal", "redeal_refusal", "new_game", "places", "play", "play_trusted", "preset_rules", "public_view",
    "redeal_allowed", "redeal_suit", "replay_json", "replay_record", "replay_text", "seat_view", "Series", "series_after_game",
    "series_start", "settlement", "throwers",
    "verify_commitment", "who_acts",
]
