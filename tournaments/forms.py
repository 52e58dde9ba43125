"""Forms of the tournament pages: a director's new tournament, a team's entry, and the director's acts.

The forms check what a person can get wrong, with translated messages; tournaments.services has the last
word (its ValidationError is shown on the form).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.engine import MalformedRecord, Rules
from games.forms import ClockFields, DECK_CHOICES, FIRST_BOUT_LIMIT_CHOICES, PRESET_CHOICES, THROW_IN_CHOICES, TURN_SECONDS_CHOICES
from ratings.models import RatingPool
from tournaments.models import (
    DuplicateScoring, Entrant, EntrantStatus, Format, NoShow, Seating, Tournament, TournamentStatus,
)
from tournaments.pairing import ROUND_ROBIN_ORDER, SWISS_ORDER, TieBreak
from tournaments.pairing.round_robin import MAX_PLAYERS as ROUND_ROBIN_MOST

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


class TieBreakOrderField(forms.Field):
    """Tie-break codes in order, one value each (the page's list: names shown, codes sent); a value holding
    several codes separated by commas is read too, as the older form wrote them. Empty: None."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value: Any) -> list[str] | None:
        values = value if isinstance(value, (list, tuple)) else [value or ""]
        codes = [part.strip() for one in values for part in str(one).replace(";", ",").split(",") if part.strip()]
        return codes or None

    def validate(self, value: Any) -> None:
        super().validate(value)
        codes = value or []
        known = {tiebreak.value for tiebreak in TieBreak}
        unknown = [code for code in codes if code not in known]
        if unknown:
            raise forms.ValidationError(_("Unknown tie-break: %(names)s.") % {"names": ", ".join(unknown)})
        if len(set(codes)) != len(codes):
            raise forms.ValidationError(_("A tie-break is listed twice."))


@dataclass(frozen=True)
class Preset:
    """A kind of event the create page fills in one click: its fields' values and what its card shows."""

    key: str
    title: Any
    description: Any
    summary: tuple[Any, ...]  # the card's facts: format, rounds, clock
    values: dict[str, Any] = field(default_factory=dict)


_HEADS_UP_CLOCK = {"timing": "clock", "clock_base": 5, "clock_increment": 3}
PRESETS = {preset.key: preset for preset in (
    Preset("club-swiss", _("Club Swiss"), _("Everyone plays every round against someone of the same score."),
           (_("Swiss"), _("5 rounds"), _("5 min + 3 s")),
           {"format": Format.SWISS, "rounds": 5, "seating": Seating.HEADS_UP, "games_per_pairing": 1, **_HEADS_UP_CLOCK,
            "round_interval": 120, "final_size": 0}),
    Preset("round-robin", _("Round robin"), _("Everyone meets everyone, two games a pairing, each attacking first once."),
           (_("Round robin"), _("Everyone meets everyone"), _("5 min + 3 s")),
           {"format": Format.ROUND_ROBIN, "seating": Seating.HEADS_UP, "games_per_pairing": 2, **_HEADS_UP_CLOCK,
            "round_interval": 120, "capacity": 8, "final_size": 0}),
    Preset("qualifier", _("Qualifier and final"), _("A Swiss qualifier; its best four play a round-robin final, created with it."),
           (_("Swiss, then a round robin"), _("5 rounds + the final"), _("5 min + 3 s")),
           {"format": Format.SWISS, "rounds": 5, "seating": Seating.HEADS_UP, "games_per_pairing": 1, **_HEADS_UP_CLOCK,
            "round_interval": 120, "final_size": 4}),
    Preset("teams", _("Team event"), _("Teams of two play two against two; a Swiss of the teams."),
           (_("Teams 2v2"), _("5 rounds"), _("5 min + 3 s")),
           {"format": Format.SWISS, "rounds": 5, "seating": Seating.TEAMS, "team_size": 2, "games_per_pairing": 2,
            **_HEADS_UP_CLOCK, "round_interval": 120, "final_size": 0}),
    Preset("blitz", _("Blitz evening"), _("No arena format here: a Swiss of many short rounds with a short clock, the next round 30 seconds after the last."),
           (_("Swiss"), _("11 rounds"), _("1 min + 1 s")),
           {"format": Format.SWISS, "rounds": 11, "seating": Seating.HEADS_UP, "games_per_pairing": 1, "timing": "clock",
            "clock_base": 1, "clock_increment": 1, "round_interval": 30, "grace_seconds": 60, "final_size": 0}),
)}  # fmt: skip


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
    duplicate = forms.BooleanField(
        label=_("Duplicate deals"), required=False, initial=False,
        help_text=_("Every board of a round plays the same cards, the seats rotated, and each player is also scored "
                    "against the others who held the same hand."),
    )  # fmt: skip
    duplicate_scoring = forms.ChoiceField(
        label=_("Duplicate scoring"), choices=DuplicateScoring.choices, initial=DuplicateScoring.TIEBREAK, required=False
    )
    points_win = forms.FloatField(label=_("Points for a win"), min_value=0, initial=1)
    points_draw = forms.FloatField(label=_("Points for a draw"), min_value=0, initial=0.5)
    place_points = forms.CharField(
        label=_("Points by place at a table"), required=False,
        help_text=_("First place first, e.g. 3, 2, 1; the durak always scores 0. Empty: one point less a place."),
    )  # fmt: skip
    tiebreaks = TieBreakOrderField(
        label=_("Tie-breaks in order"), required=False,
        help_text=_("Drag them into order, or use the arrows; the first decides first. Untouched: the usual order for the format."),
    )  # fmt: skip
    # "0": the director left the list as shown, so the format's usual order applies (the list shows the Swiss
    # order without JavaScript, whatever the format); the page's script sets "1" when he changes it.
    tiebreaks_custom = forms.CharField(required=False, widget=forms.HiddenInput)
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
    analyse_games = forms.BooleanField(
        label=_("Analyse every game automatically"), required=False, initial=False,
        help_text=_("Each finished game is reviewed by the engine; players and directors see its accuracy."),
    )  # fmt: skip
    qualifier = forms.ModelChoiceField(
        label=_("Final stage of"), queryset=Tournament.objects.none(), required=False, empty_label=_("No qualifier"),
        help_text=_("Its best entrants enter this tournament when it ends."),
    )  # fmt: skip
    qualify_count = forms.IntegerField(label=_("Entrants who qualify"), min_value=0, required=False, initial=0)
    final_size = forms.IntegerField(
        label=_("Finalists"), min_value=0, max_value=ROUND_ROBIN_MOST, required=False, initial=0,
        help_text=_("The best of this Swiss go on to a round-robin final, created with it. 0: no final."),
    )  # fmt: skip
    final_starts_at = forms.DateTimeField(
        label=_("The final starts at"), required=False, widget=DateTimeInput(),
        help_text=_("Leave time for every round of the Swiss; if the Swiss ends later, the final starts when it ends."),
    )  # fmt: skip

    def __init__(self, *args: Any, director: User | None = None, preset: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        now = timezone.now()
        self.fields["registration_opens"].initial = _local(now)
        self.fields["registration_closes"].initial = _local(now + datetime.timedelta(hours=1))
        self.fields["starts_at"].initial = _local(now + datetime.timedelta(hours=1))
        self.fields["final_starts_at"].initial = _local(now + datetime.timedelta(hours=4))
        self.chosen_preset = preset if preset in PRESETS else ""
        if self.chosen_preset and not self.is_bound:  # a preset's card followed without JavaScript
            for name, value in PRESETS[self.chosen_preset].values.items():
                self.fields[name].initial = value
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

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        self.clean_clock(data)
        if data.get("tiebreaks_custom") == "0":
            data["tiebreaks"] = None
        self._clean_combinations(data)
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

    def _clean_combinations(self, data: dict[str, Any]) -> None:
        """The service's checks of fields taken together, beside the field to change (static/tournaments/
        create.js makes the same checks as the director types)."""
        round_robin = data.get("format") not in (None, Format.SWISS)
        if round_robin and data.get("seating") == Seating.TABLES:
            self.add_error("seating", _("A round robin is played heads-up or in teams, not at tables."))
        win, draw = data.get("points_win"), data.get("points_draw")
        if win is not None and draw is not None and not win > draw:
            self.add_error("points_draw", _("A win must be worth more than a draw."))
        opens, closes, starts = data.get("registration_opens"), data.get("registration_closes"), data.get("starts_at")
        if opens and closes and closes < opens:
            self.add_error("registration_closes", _("Registration closes after it opens."))
        if closes and starts and starts < closes:
            self.add_error("starts_at", _("The tournament starts once registration has closed."))
        finalists = data.get("final_size") or 0
        if finalists and round_robin:
            self.add_error("final_size", _("Only a Swiss qualifies for a final."))
        elif finalists and data.get("seating") == Seating.TABLES:
            self.add_error("final_size", _("A round-robin final is played heads-up or in teams, not at tables."))
        elif finalists == 1:
            self.add_error("final_size", _("A final needs at least 2 players."))
        elif finalists:
            final_starts = data.get("final_starts_at")
            if final_starts is None:
                self.add_error("final_starts_at", _("Say when the final starts."))
            elif starts and final_starts <= starts:
                self.add_error("final_starts_at", _("The final starts after the Swiss."))
        if data.get("qualifier") is not None and not data.get("qualify_count"):
            self.add_error("qualify_count", _("Say how many entrants qualify."))

    def tiebreak_rows(self) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
        """The tie-breaks in the order shown (chosen) and the others (to pick from), as (code, name)."""
        labels = {tiebreak.value: str(label) for tiebreak, label in TIEBREAK_LABELS.items()}
        chosen: list[str] = []
        if self.is_bound:
            field = self.fields["tiebreaks"]
            raw = field.widget.value_from_datadict(self.data, self.files, self.add_prefix("tiebreaks"))
            chosen = [code for code in field.to_python(raw) or [] if code in labels]
        if not chosen:
            chosen = [tiebreak.value for tiebreak in SWISS_ORDER]
        chosen = list(dict.fromkeys(chosen))
        return [(code, labels[code]) for code in chosen], [(code, name) for code, name in labels.items() if code not in chosen]

    def presets(self) -> list[Preset]:
        return list(PRESETS.values())

    def client_setup(self) -> dict[str, Any]:
        """What static/tournaments/create.js needs, in the reader's language: the presets' values, the usual
        tie-break order of each format, and the messages of the checks it makes as the director types."""
        labels = {tiebreak.value: str(label) for tiebreak, label in TIEBREAK_LABELS.items()}
        return {
            "presets": {key: preset.values for key, preset in PRESETS.items()},
            "orders": {
                Format.SWISS: [tiebreak.value for tiebreak in SWISS_ORDER],
                Format.ROUND_ROBIN: [tiebreak.value for tiebreak in ROUND_ROBIN_ORDER],
                Format.DOUBLE_ROUND_ROBIN: [tiebreak.value for tiebreak in ROUND_ROBIN_ORDER],
            },
            "labels": labels,
            "messages": {
                "required": str(forms.Field.default_error_messages["required"]),
                "rounds": str(_("A Swiss has 1 to %(most)s rounds.") % {"most": 30}),
                "tables_round_robin": str(_("A round robin is played heads-up or in teams, not at tables.")),
                "table_size": str(_("A table seats 3 to 6 players.")),
                "points": str(_("A win must be worth more than a draw.")),
                "negative": str(_("Times and points cannot be negative.")),
                "closes": str(_("Registration closes after it opens.")),
                "starts": str(_("The tournament starts once registration has closed.")),
                "final_size": str(_("A final needs 2 to %(most)s players; 0: no final.") % {"most": ROUND_ROBIN_MOST}),
                "final_round_robin": str(_("Only a Swiss qualifies for a final.")),
                "final_starts": str(_("The final starts after the Swiss.")),
                "capacity": str(_("Room for at least 2 entrants.")),
                "clock_base": str(_("From half a minute to 60 minutes.")),
                "clock_increment": str(_("0 to 60 seconds.")),
                "qualify_count": str(_("Say how many entrants qualify.")),
                "place_points": str(_("Write numbers separated by commas.")),
                "moved": str(_("%(name)s: place %(place)s of %(count)s")),
                "fix": str(_("Some fields need a look: see the messages beside them.")),
            },
        }

    def final_arguments(self) -> dict[str, Any]:
        """The final to create with this Swiss (tournaments.services.presets), or nothing."""
        data = self.cleaned_data
        if not data.get("final_size"):
            return {}
        return {"final_size": data["final_size"], "final_starts_at": data["final_starts_at"]}

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
            "analyse_games": data["analyse_games"], "duplicate": data["duplicate"],
            "duplicate_scoring": data["duplicate_scoring"] or DuplicateScoring.TIEBREAK,
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


class EntrantChoiceField(forms.ModelChoiceField):
    """An entrant of the tournament chosen from a list by his number and name, never typed."""

    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.key} · {obj.team_name or obj.user.public_name}"


class AvoidanceForm(forms.Form):
    """Two entrants who must not meet, and why (tournaments.services.avoidances)."""

    first = EntrantChoiceField(label=_("Entrant"), queryset=Entrant.objects.none(), empty_label=_("Choose an entrant"))
    second = EntrantChoiceField(
        label=_("must not meet"), queryset=Entrant.objects.none(), empty_label=_("Choose an entrant")
    )
    reason = forms.CharField(label=_("Reason"), max_length=2000, help_text=_("The same club, a family, ..."))

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        entrants = Entrant.objects.filter(tournament=tournament).exclude(
            status__in=[EntrantStatus.WITHDRAWN, EntrantStatus.DISQUALIFIED]
        ).select_related("user").order_by("number")  # fmt: skip
        for name in ("first", "second"):
            self.fields[name].queryset = entrants  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        first, second = data.get("first"), data.get("second")
        if first is not None and second is not None and first.pk == second.pk:
            self.add_error("second", _("Choose two different entrants: nobody is paired against himself."))
        return data
