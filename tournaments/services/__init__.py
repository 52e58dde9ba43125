"""Every change to tournaments, one module a part (each under ``tournaments/services/``):

- ``_common``: who may create and direct, the lock, the log, the pages' nudge, the timed tasks;
- ``create``, ``presets``; ``register``; ``entrants`` (the director's entrants, presence before a round);
- ``rounds``: each round's start, pairing, seating, no-shows and close, the end and a final's qualifiers;
- ``matches``: a game's end scored for its pairing; ``standings``: the standings stored;
- ``direction``: the director's acts; ``results``: a board's outcome by a click, a running game decided;
  ``avoidances``: entrants who must not meet; ``sweep``: a round due, and what the timed tasks missed.

The bridge to the pure core (STYLE.md 3): rows are loaded into tournaments.pairing values, its functions
called, and what they return stored. A user error is a ValidationError with a translated message. The
modules import one another in that order, never back; this package re-exports the names its callers use
(``services.tournament_start``), and the submodules are imported by name (``from tournaments.services
import entrants``). Each part in more words: docs/architecture.md, "Tournaments".
"""

from tournaments.services import avoidances, entrants, presets, results
from tournaments.services._common import can_create, can_direct
from tournaments.services.create import MAX_GAMES_PER_PAIRING, MAX_SWISS_ROUNDS, TournamentSettings, tournament_create
from tournaments.services.direction import (
    dispute_file, dispute_resolve, entrant_disqualify, entrant_reinstate, entrant_withdraw, match_game_set_result,
    pairing_forfeit, pairing_set_result, round_confirm, round_repair, tournament_finish_early, tournament_pause,
    tournament_resume,
)
from tournaments.services.matches import pairing_record_simulated, tournament_game_finished
from tournaments.services.register import team_accept, team_decline, tournament_register
from tournaments.services.rounds import pairing_check_in, round_enforce_seat_deadline, round_pair, tournament_start
from tournaments.services.standings import (
    _results_by_round, standings_compute, standings_refresh, standings_refresh_pending, tournament_trf,
)
from tournaments.services.sweep import round_start_due, tournaments_sweep

__all__ = [
    "MAX_GAMES_PER_PAIRING", "MAX_SWISS_ROUNDS", "TournamentSettings", "_results_by_round",
    "avoidances", "can_create", "can_direct", "dispute_file", "dispute_resolve", "entrant_disqualify",
    "entrant_reinstate", "entrant_withdraw", "entrants", "match_game_set_result", "pairing_check_in",
    "pairing_forfeit", "pairing_record_simulated", "pairing_set_result", "presets", "results", "round_confirm",
    "round_enforce_seat_deadline", "round_pair", "round_repair", "round_start_due", "standings_compute",
    "standings_refresh", "standings_refresh_pending", "team_accept", "team_decline", "tournament_create",
    "tournament_finish_early", "tournament_game_finished", "tournament_pause", "tournament_register",
    "tournament_resume", "tournament_start", "tournament_trf", "tournaments_sweep",
]  # fmt: skip
