"""The roles an account can hold and what each one may do.

A player is any human account; a tournament director is a member of the directors' group, whose
permissions are listed here; an admin is a Django superuser (staff with every permission).
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    PLAYER = "player", _("Player")
    TOURNAMENT_DIRECTOR = "tournament_director", _("Tournament director")
    ADMIN = "admin", _("Administrator")


TOURNAMENT_DIRECTORS_GROUP = "Tournament directors"

# "app_label.codename" of every permission the directors' group holds; roles_sync keeps the group equal
# to this list. The tournaments and games apps add their own permissions here as their models arrive.
TOURNAMENT_DIRECTOR_PERMISSIONS: tuple[str, ...] = (
    "accounts.direct_tournaments",
    "accounts.adjudicate_games",
    "accounts.view_user",
)
