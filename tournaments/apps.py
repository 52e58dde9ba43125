from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # A finished tournament game scores its pairing inside game_finalise's transaction (DESIGN.md,
        # "How a move flows" 5): game, match, standings, round.
        from games.hooks import on_game_finished
        from tournaments.services import tournament_game_finished

        on_game_finished(tournament_game_finished)
