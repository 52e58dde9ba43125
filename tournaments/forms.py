"""Forms of the tournament pages: a director's new tournament, a team's entry, and the director's acts.

The forms check what a person can get wrong, with translated messages; tournaments.services has the last
word (its ValidationError is shown on the form).
"""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.engine import MalformedRecord, Rules
from games.forms import ClockFields, DECK_CHOICES, FIRST_BOUT_LIMIT_CHOICES, PRESET_CHOICES, THROW_IN_CHOICES, TURN_SECONDS_CHOICES
from ratings.models import RatingPool
from tournaments.models import Format, NoShow, Seating, Tournament, TournamentStatus
from tournaments.pairing import TieBreak

TIEBREAK_LABELS = {
    TieBreak.BUCHHOLZ: _("Buchholz"),
    TieBreak.BUCHHOLZ_CUT1: _("Buchholz cut 1"),
    TieBreak.MEDIAN_BUCHHOLZ: _("Median Buchholz"),
    TieBreak.SONNEBORN_BERGER: _("Sonneborn-Berger"),
    TieBreak.PROGRESSIVE: _("Progressive score"),
    TieBreak.DIRECT_ENCOUNTER: _("Direct encounter"),
    TieBreak.WINS: _("Wins"),
    TieBreak.GAMES_WON: _("Games won"),
    TieBreak.AVERAGE_RATING_OF_OPPONENTS: _("Average rating of opponents"),
    TieBreak.DURAK_FINISHES: _("Durak finishes (fewer first)"),
    TieBreak.EPAULETTES_HUNG: _("Epaulettes hung"),
}


def _local(moment: datetime.datetime) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%dT%H:%M")


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


class TournamentCreateForm(ClockFields):
    name = forms.CharField(label=_("Name"), max_length=100)
    description = forms.CharField(label=_("Description"), required=False, widget=forms.Textarea(attrs={"rows": 3}))
    rating_pool = forms.ModelChoiceField(
        label=_("Rating pool"), queryset=RatingPool.objects.filter(active=True), required=False,
        empty_label=_("Not rated"), help_text=_("A rated tournament plays the pool's rule set; its games count there."),
    )  # fmt: skip
    preset = forms.ChoiceField(label=_("Game"), choices=PRESET_CHOICES, initial="podkidnoy")
    deck = forms.TypedChoiceField(label=_("Deck"), choices=DECK_CHOICES, coerce=int, initial=36)
    throw_in = forms.ChoiceField(label=_("Who throws in"), choices=THROW_IN_CHOICES, initial="all")
    first_bout_limit = forms.TypedChoiceField(
        label=_("First bout limit"), choices=FIRST_BOUT_LIMIT_CHOICES, coerce=int, initial=6
    )
    transfer_by_showing_trump = forms.BooleanField(label=_("Transfer by showing a trump"), required=False)
    cheating = forms.BooleanField(label=_("Cheating tables"), required=False)
    format = forms.ChoiceField(label=_("Format"), choices=Format.choices, initial=Format.SWISS)
    rounds = forms.IntegerField(label=_("Swiss rounds"), min_value=1, max_value=30, initial=5)
    seating = forms.ChoiceField(label=_("Seating"), choices=Seating.choices, initial=Seating.HEADS_UP)
    table_size = forms.IntegerField(label=_("Players at a table"), min_value=3, max_value=6, initial=4)
    team_size = forms.TypedChoiceField(
        label=_("Players in a team"), choices=[(2, "2v2"), (3, "3v3")], coerce=int, initial=2
    )
    games_per_pairing = forms.IntegerField(
        label=_("Games per pairing"), min_value=1, max_value=9, initial=1,
        help_text=_("The first attack alternates from game to game."),
    )  # fmt: skip
    points_win = forms.FloatField(label=_("Points for a win"), min_value=0, initial=1)
    points_draw = forms.FloatField(label=_("Points for a draw"), min_value=0, initial=0.5)
    place_points = forms.CharField(
        label=_("Points by place at a table"), required=False,
        help_text=_("First place first, e.g. 3, 2, 1; the durak always scores 0. Empty: one point less a place."),
    )  # fmt: skip
    tiebreaks = forms.CharField(
        label=_("Tie-breaks in order"), required=False,
        help_text=_("Empty: the usual order for the format. Names: %(names)s.") % {
            "names": ", ".join(tiebreak.value for tiebreak in TieBreak)
        },
    )  # fmt: skip
    registration_opens = forms.DateTimeField(label=_("Registration opens"), widget=DateTimeInput())
    registration_closes = forms.DateTimeField(label=_("Registration closes"), widget=DateTimeInput())
    starts_at = forms.DateTimeField(label=_("Starts at"), widget=DateTimeInput())
    round_interval = forms.IntegerField(
        label=_("Seconds between rounds"), min_value=0, max_value=7 * 24 * 3600, initial=120
    )
    turn_seconds = forms.TypedChoiceField(label=_("Time per turn"), choices=TURN_SECONDS_CHOICES, coerce=int, initial=30)
    grace_seconds = forms.IntegerField(
        label=_("Seconds to take one's seat"), min_value=0, max_value=24 * 3600, initial=300,
        help_text=_("A player not seated by then forfeits, or a bot plays for him."),
    )  # fmt: skip
    no_show = forms.ChoiceField(label=_("A player who does not come"), choices=NoShow.choices, initial=NoShow.FORFEIT)
    capacity = forms.IntegerField(label=_("Most entrants"), min_value=2, required=False)
    bots_allowed = forms.BooleanField(label=_("Bots may enter"), required=False, initial=True)
    auto_advance = forms.BooleanField(
        label=_("Next round starts by itself"), required=False, initial=True,
        help_text=_("Otherwise the director confirms each round."),
    )  # fmt: skip
    qualifier = forms.ModelChoiceField(
        label=_("Final stage of"), queryset=Tournament.objects.none(), required=False, empty_label=_("No qualifier"),
        help_text=_("Its best entrants enter this tournament when it ends."),
    )  # fmt: skip
    qualify_count = forms.IntegerField(label=_("Entrants who qualify"), min_value=0, required=False, initial=0)

    def __init__(self, *args: Any, director: User | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        now = timezone.now()
        self.fields["registration_opens"].initial = _local(now)
        self.fields["registration_closes"].initial = _local(now + datetime.timedelta(hours=1))
        self.fields["starts_at"].initial = _local(now + datetime.timedelta(hours=1))
        qualifiers = Tournament.objects.filter(status__in=[TournamentStatus.REGISTRATION, TournamentStatus.RUNNING])
        if director is not None and not director.is_superuser:
            qualifiers = qualifiers.filter(director=director)
        self.fields["qualifier"].queryset = qualifiers  # type: ignore[attr-defined]

    def clean_place_points(self) -> list[float]:
        raw = self.cleaned_data.get("place_points") or ""
        try:
            return [float(part) for part in raw.replace(";", ",").split(",") if part.strip()]
        except ValueError:
            raise forms.ValidationError(_("Write numbers separated by commas.")) from None

    def clean_tiebreaks(self) -> list[str] | None:
        raw = self.cleaned_data.get("tiebreaks") or ""
        names = [part.strip() for part in raw.replace(";", ",").split(",") if part.strip()]
        known = {tiebreak.value for tiebreak in TieBreak}
        unknown = [name for name in names if name not in known]
        if unknown:
            raise forms.ValidationError(_("Unknown tie-break: %(names)s.") % {"names": ", ".join(unknown)})
        return names or None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        self.clean_clock(data)
        if self.errors:
            return data
        if data["rating_pool"] is None:
            try:
                data["rules"] = Rules.from_dict({
                    "preset": data["preset"], "deck": data["deck"], "throw_in": data["throw_in"],
                    "first_bout_limit": data["first_bout_limit"],
                    "transfer_by_showing_trump": data["transfer_by_showing_trump"], "cheating": data["cheating"],
                })  # fmt: skip
            except MalformedRecord as error:
                raise forms.ValidationError(
                    _("The engine refuses this rule set: %(reason)s"), params={"reason": str(error)}
                ) from error
        else:
            data["rules"] = None
        return data

    def service_arguments(self) -> dict[str, Any]:
        """The cleaned values as tournaments.services.tournament_create takes them."""
        data = self.cleaned_data
        return {
            "name": data["name"], "description": data["description"], "rules": data["rules"],
            "rating_pool": data["rating_pool"], "format": data["format"], "rounds": data["rounds"],
            "seating": data["seating"], "table_size": data["table_size"], "team_size": data["team_size"],
            "games_per_pairing": data["games_per_pairing"], "points_win": data["points_win"],
            "points_draw": data["points_draw"], "place_points": data["place_points"], "tiebreaks": data["tiebreaks"],
            "registration_opens": data["registration_opens"], "registration_closes": data["registration_closes"],
            "starts_at": data["starts_at"], "round_interval": data["round_interval"],
            "turn_seconds": data["turn_seconds"], "clock_base": data["clock_base_seconds"],
            "clock_increment": data["clock_increment_seconds"], "grace_seconds": data["grace_seconds"], "no_show": data["no_show"],
            "capacity": data["capacity"], "bots_allowed": data["bots_allowed"], "auto_advance": data["auto_advance"],
            "qualifier": data["qualifier"], "qualify_count": data["qualify_count"] or 0,
        }  # fmt: skip


class TeamEntryForm(forms.Form):
    team_name = forms.CharField(label=_("Team name"), max_length=60)
    partners = forms.CharField(label=_("Partners' usernames"), help_text=_("Separated by commas."))

    def __init__(self, *args: Any, team_size: int = 2, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.team_size = team_size

    def clean_partners(self) -> list[User]:
        names = [name.strip() for name in self.cleaned_data["partners"].split(",") if name.strip()]
        if len(names) != self.team_size - 1:
            raise forms.ValidationError(
                _("Name %(count)s partners.") % {"count": self.team_size - 1}
            )
        found = {user.username.lower(): user for user in User.objects.filter(username__in=names)}
        missing = [name for name in names if name.lower() not in found]
        if missing:
            raise forms.ValidationError(_("No such player: %(names)s.") % {"names": ", ".join(missing)})
        return [found[name.lower()] for name in names]


class LateEntryForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    reason = forms.CharField(label=_("Reason"), max_length=2000, required=False)

    def clean_username(self) -> User:
        user = User.objects.filter(username=self.cleaned_data["username"].strip()).first()
        if user is None:
            raise forms.ValidationError(_("No such player."))
        return user


class DisputeForm(forms.Form):
    text = forms.CharField(label=_("What happened"), max_length=4000, widget=forms.Textarea(attrs={"rows": 3}))


class DisputeResolveForm(forms.Form):
    upheld = forms.TypedChoiceField(
        label=_("Decision"), choices=[("1", _("Upheld")), ("0", _("Dismissed"))], coerce=lambda value: value == "1"
    )
    resolution = forms.CharField(label=_("Reason"), max_length=4000, widget=forms.TextInput)


def parse_numbers(raw: str) -> list[float]:
    """"1, 0" or "0.5 0.5" as numbers; ValueError when something else is written."""
    return [float(part) for part in raw.replace(",", " ").split()]


def parse_places(raw: str) -> list[list[int]]:
    """Places written as seats, best first: "1 / 0" or "0 2 / 1 / 3" (a slash between places, seats of a
    shared place side by side); ValueError when something else is written."""
    groups = [[int(seat) for seat in part.replace(",", " ").split()] for part in raw.split("/")]
    if any(not group for group in groups):
        raise ValueError("an empty place")
    return groups
