"""Admin: tournaments, entrants and the log, read-only: every change goes through tournaments.services
(the site's pages for directors), so that each is checked and logged."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import AuditEntry, Entrant, Tournament


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = ("name", "status", "format", "seating", "current_round", "rounds_planned", "starts_at", "director")
    list_filter = ("status", "format", "seating")
    search_fields = ("name",)
    list_select_related = ("director",)


@admin.register(Entrant)
class EntrantAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "number", "user", "team_name", "rating", "status")
    list_filter = ("status",)
    search_fields = ("user__username", "team_name", "tournament__name")
    list_select_related = ("tournament", "user")


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "at", "actor", "action", "round_number", "subject", "reason")
    list_filter = ("action",)
    search_fields = ("tournament__name", "subject", "reason")
    list_select_related = ("tournament", "actor")
