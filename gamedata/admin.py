"""Admin: the published months, read-only (only gamedata.services writes them, with their files)."""

from django.contrib import admin

from durak_site.admin import ReadOnlyAdmin
from gamedata.models import MonthlyExport


@admin.register(MonthlyExport)
class MonthlyExportAdmin(ReadOnlyAdmin):
    list_display = ("month", "file_name", "games", "bytes", "sha256", "created")
