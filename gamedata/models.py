"""The published monthly files of open game data: one row a month, naming its file under GAME_DATA_DIR.

Written only by gamedata.services.monthly_export_make; the download view serves only the files named here.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class MonthlyExport(models.Model):
    month = models.DateField(_("month"), unique=True)  # the month's first day; its games finished in it (UTC)
    file_name = models.CharField(_("file name"), max_length=100, unique=True)
    games = models.PositiveIntegerField(_("games"))
    bytes = models.PositiveBigIntegerField(_("size in bytes"))
    sha256 = models.CharField(_("SHA-256"), max_length=64)
    created = models.DateTimeField(_("made"), default=timezone.now)

    class Meta:
        ordering = ["-month"]
        verbose_name = _("monthly export")
        verbose_name_plural = _("monthly exports")

    def __str__(self) -> str:
        return self.file_name
