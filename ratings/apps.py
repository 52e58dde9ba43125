from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        # A finished live game is rated inside game_finalise's transaction (DESIGN.md, "How a move flows" 5).
        from games.hooks import on_game_finished
        from ratings.services import rating_game_finished

        on_game_finished(rating_game_finished)
