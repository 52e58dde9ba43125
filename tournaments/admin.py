"""Admin: tournaments, entrants and the log, read-only: every change goes through tournaments.services
(the site's pages for directors), so that each is checked and logged."""

from django.contrib import admin

from durak_site.admin import ReadOnlyAdmin
from tournaments.models import AuditEntry, Entrant, Tournament


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
