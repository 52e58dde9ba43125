from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamedataConfig(AppConfig):
    name = "gamedata"
    verbose_name = _("Game data")
