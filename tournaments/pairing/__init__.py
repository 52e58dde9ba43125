"""Pairing and tie-breaks for Durak championships: pure functions over plain data, no Django, no I/O.

- ``pair_swiss``: heads-up Swiss after the FIDE Dutch system (C.04.3), by weighted matching; teams
  are paired the same way, one entrant per team.
- ``round_robin`` / ``berger_table``: FIDE's Berger tables (C.05 Annex 1), single or double.
- ``seat_tables``: multi-player Swiss at tables of 3 to 6, by score, repeat meetings minimised.
- ``avoidances``: pairs who must not meet, a constraint of both Swiss pairings (``pair_swiss_explained``,
  ``seat_tables_explained`` also say what they did to the round).
- ``standings``: ranking with FIDE's tie-breaks (C.07, 2023) and ours, in a configurable order.

``tournaments/services/`` is the bridge: it loads rows into these values, calls the functions and
stores what they return.
"""

from tournaments.pairing.avoidances import AvoidanceReport, Avoidances, avoidances
from tournaments.pairing.model import (
    Board,
    BoardResult,
    EntrantId,
    EntrantState,
    Float,
    PairingError,
    PairingInputError,
    Round,
    Side,
    entrants_after,
)
from tournaments.pairing.round_robin import berger_table, round_robin
from tournaments.pairing.swiss import SwissOptions, pair_swiss, pair_swiss_explained
from tournaments.pairing.tables import repeat_meetings, seat_tables, seat_tables_explained, table_sizes, team_rating
from tournaments.pairing.tiebreaks import ROUND_ROBIN_ORDER, SWISS_ORDER, Scoring, Standing, TieBreak, standings

__all__ = [
    "ROUND_ROBIN_ORDER",
    "SWISS_ORDER",
    "AvoidanceReport",
    "Avoidances",
    "Board",
    "BoardResult",
    "EntrantId",
    "EntrantState",
    "Float",
    "PairingError",
    "PairingInputError",
    "Round",
    "Scoring",
    "Side",
    "Standing",
    "SwissOptions",
    "TieBreak",
    "avoidances",
    "berger_table",
    "entrants_after",
    "pair_swiss",
    "pair_swiss_explained",
    "repeat_meetings",
    "round_robin",
    "seat_tables",
    "seat_tables_explained",
    "standings",
    "table_sizes",
    "team_rating",
]
