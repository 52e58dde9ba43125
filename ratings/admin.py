"""Admin: pools are added and edited here (their rule set is checked and normalised by RatingPool.clean);
ratings and rated games are shown read-only, since only ratings.services writes them."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from durak_site.admin import ReadOnlyAdmin
from ratings.models import PlayerRating, RatedGame, RatingChange, RatingPool


@admin.register(RatingPool)
class RatingPoolAdmin(admin.ModelAdmin):
    list_display = ("slug", "name_en", "name_ru", "format", "min_players", "max_players", "active", "humans_only",
                    "position")
    list_filter = ("format", "active", "humans_only")
    list_editable = ("active", "position")
    readonly_fields = ("last_sequence",)
    prepopulated_fields = {"slug": ("name_en",)}


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "pool", "rating", "games", "peak", "wins", "durak_finishes", "draws", "last_played")
    list_filter = ("pool",)
    search_fields = ("user__username", "user__display_name")
    list_select_related = ("user", "pool")


class RatingChangeInline(admin.TabularInline):
    model = RatingChange
    fields = ("seat", "user", "before", "after", "delta", "k", "provisional")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(RatedGame)
class RatedGameAdmin(ReadOnlyAdmin):
    list_display = ("game_key", "pool", "sequence", "played_at")
    list_filter = ("pool",)
    search_fields = ("game_key",)
    inlines = [RatingChangeInline]
