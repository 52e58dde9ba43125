from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReviewConfig(AppConfig):
    name = "review"
    verbose_name = _("Game review")

    def ready(self) -> None:
        from games.views_replay import provide_analysis
        from review.selectors import replay_analysis

        provide_analysis(replay_analysis)
