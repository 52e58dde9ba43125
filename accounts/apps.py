from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def _sync_roles_after_migrate(**kwargs: object) -> None:
    from accounts.services import roles_sync

    # post_migrate fires once per app; permissions of apps later in the list appear on later calls,
    # so each call syncs what exists so far and the last one sees them all.
    roles_sync(strict=False)


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        post_migrate.connect(_sync_roles_after_migrate, dispatch_uid="accounts.roles_sync")
