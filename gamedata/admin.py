"""Admin: the published months, read-only (only gamedata.services writes them, with their files)."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from gamedata.models import MonthlyExport


@admin.register(MonthlyExport)
class MonthlyExportAdmin(admin.ModelAdmin):
    list_display = ("month", "file_name", "games", "bytes", "sha256", "created")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
