"""Query-parameter filters of the API's lists (django-filter)."""

from __future__ import annotations

import datetime

import django_filters
from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet

from accounts.models import User
from games.models import Game, GameStatus, Table, TableStatus


class GameFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=GameStatus.choices)
    player = django_filters.CharFilter(method="filter_player", help_text="a username: games he played")
    rated = django_filters.BooleanFilter(method="filter_rated", help_text="counted for a rating pool")
    pool = django_filters.CharFilter(field_name="rated_game__pool__slug", help_text="a rating pool's slug")
    finished_after = django_filters.IsoDateTimeFilter(method="filter_finished_after")
    finished_before = django_filters.IsoDateTimeFilter(method="filter_finished_before")

    class Meta:
        model = Game
        fields: list[str] = []

    def filter_finished_after(self, queryset: QuerySet[Game], name: str, value: datetime.datetime) -> QuerySet[Game]:
        return queryset.filter(finished__gte=_utc(value))

    def filter_finished_before(self, queryset: QuerySet[Game], name: str, value: datetime.datetime) -> QuerySet[Game]:
        return queryset.filter(finished__lt=_utc(value))

    def filter_player(self, queryset: QuerySet[Game], name: str, value: str) -> QuerySet[Game]:
        return queryset.filter(table__seats__user__username=value).distinct()

    def filter_rated(self, queryset: QuerySet[Game], name: str, value: bool | None) -> QuerySet[Game]:
        if value is None:
            return queryset
        return queryset.filter(rated_game__isnull=not value)


class TableFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=TableStatus.choices)
    rated = django_filters.BooleanFilter()

    class Meta:
        model = Table
        fields: list[str] = []


class PlayerFilter(django_filters.FilterSet):
    search = django_filters.CharFilter(method="filter_search", help_text="part of a username or display name")
    bot = django_filters.BooleanFilter(method="filter_bot", help_text="the site's bots and bot accounts")
    country = django_filters.CharFilter(field_name="country", help_text="ISO 3166 code, e.g. RU")

    class Meta:
        model = User
        fields: list[str] = []

    def filter_search(self, queryset: QuerySet[User], name: str, value: str) -> QuerySet[User]:
        return queryset.filter(Q(username__icontains=value) | Q(display_name__icontains=value))

    def filter_bot(self, queryset: QuerySet[User], name: str, value: bool | None) -> QuerySet[User]:
        if value is None:
            return queryset
        bots = Q(is_bot=True) | Q(bot_account__isnull=False)
        return queryset.filter(bots) if value else queryset.exclude(bots)


def _utc(moment: datetime.datetime) -> datetime.datetime:
    """A moment in UTC: any offset ISO 8601 allows, but the database's range of years and offsets."""
    try:
        utc = moment.astimezone(datetime.UTC)
    except (OverflowError, ValueError):
        raise ValidationError("that moment is out of range") from None
    if not 1 <= utc.year <= 9999:
        raise ValidationError("that moment is out of range")
    return utc
