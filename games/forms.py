"""Forms of the play pages: create a table (a preset, then every option of RULES.md), join a seat, add bots.

The Aktobe preset plays 54 cards with the neighbours throwing in whatever the deck and throw-in fields say;
its jokers' rule (joker_beats), the first bout's limit, teams, cheating and the redeal on five of a suit may be
chosen beside it.

The create form checks the rules' combinations a player can get wrong with translated messages, then builds
the engine's `Rules` as the last word, so a table is never created with a rule set the engine refuses. Options
that do not go together with them (a rated game at a cheating table, a password at a listed table) are the
service's to refuse (games.services.table_create asks table_options_check); the view shows its errors beside
the fields.
"""

from __future__ import annotations

from typing import Any

from decimal import Decimal

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from accounts.models import BotLevel
from games.engine import MalformedRecord, Rules
from games.models import BotPace
from games.models import Table

PRESET_CHOICES = [
    ("podkidnoy", _("Podkidnoy (throw-in)")),
    ("perevodnoy", _("Perevodnoy (transfer)")),
    ("aktobe", _("Aktobe (54 cards with jokers, hidden cards)")),
]
JOKER_BEATS_CHOICES = [("all", _("A joker beats every card")), ("same_colour", _("A joker beats only its own colour"))]
# Aktobe fixes the deck (54) and who throws in (the defender's neighbours); the other options apply on top.
AKTOBE_OPTIONS = ("joker_beats", "first_bout_limit", "teams", "cheating", "redeal_five_same_suit")
DECK_CHOICES = [(24, _("24 cards (9 to ace)")), (36, _("36 cards (6 to ace)")), (52, _("52 cards (2 to ace)"))]
PLAYER_CHOICES = [(count, str(count)) for count in range(2, 9)]
THROW_IN_CHOICES = [("all", _("Everyone but the defender")), ("neighbours", _("Only the defender's neighbours"))]
FIRST_BOUT_LIMIT_CHOICES = [(6, _("6 cards")), (5, _("5 cards before the first discard"))]
TEAM_CHOICES = [("", _("Every player for himself")), ("2v2", _("Two against two")), ("3v3", _("Three against three"))]
TEAM_PLAYERS = {"2v2": 4, "3v3": 6}
TURN_SECONDS_CHOICES = [
    (15, _("15 seconds")),
    (30, _("30 seconds")),
    (60, _("1 minute")),
    (120, _("2 minutes")),
    (300, _("5 minutes")),
    (900, _("15 minutes")),
]
MAX_STAKE = 1_000_000
TIMING_CHOICES = [("turn", _("A timer for each move")), ("clock", _("A clock per player"))]


class ClockFields(forms.Form):
    """The time control of a table or a tournament: the per-move timer (the form's `turn_seconds`) or a
    clock per player, a base time in minutes and an increment in seconds (games.clocks). The ranges are the
    service's (games.services.clock_check), whose errors land beside these fields."""

    # Not required: a form posted without it (an older page, a script) keeps the per-move timer.
    timing = forms.ChoiceField(label=_("Time control"), choices=TIMING_CHOICES, initial="turn", required=False)
    clock_base = forms.DecimalField(
        label=_("Base time in minutes"), required=False, initial=3, max_digits=6, decimal_places=2,
        help_text=_("Each player's clock at the start: from half a minute to 60 minutes."),
        widget=forms.NumberInput(attrs={"step": "0.5", "min": "0.5", "max": "60", "inputmode": "decimal"}),
    )  # fmt: skip
    clock_increment = forms.IntegerField(
        label=_("Increment in seconds"), required=False, initial=2,
        help_text=_("Added to a player's clock after each of his moves: 0 to 60."),
        widget=forms.NumberInput(attrs={"min": "0", "max": "60", "inputmode": "numeric"}),
    )  # fmt: skip

    def clean_clock(self, data: dict[str, Any]) -> None:
        """`clock_base_seconds` (None: the per-move timer) and `clock_increment_seconds` into `data`, or
        errors beside the fields."""
        from games.services import clock_check

        data["clock_base_seconds"], data["clock_increment_seconds"] = None, 0
        if data.get("timing") != "clock":
            return
        minutes, increment = data.get("clock_base"), data.get("clock_increment")
        if minutes is None:
            self.add_error("clock_base", _("Give each player's base time."))
            return
        seconds = int((Decimal(minutes) * 60).to_integral_value())
        increment = 0 if increment is None else increment
        try:
            clock_check(base_seconds=seconds, increment_seconds=increment)
        except ValidationError as error:
            for field, messages in error.message_dict.items():
                for message in messages:
                    self.add_error(field, message)
            return
        data["clock_base_seconds"], data["clock_increment_seconds"] = seconds, increment


class TableCreateForm(ClockFields):
    name = forms.CharField(label=_("Table name"), max_length=60, required=False)
    preset = forms.ChoiceField(label=_("Game"), choices=PRESET_CHOICES, initial="podkidnoy")
    deck = forms.TypedChoiceField(label=_("Deck"), choices=DECK_CHOICES, coerce=int, initial=36)
    players = forms.TypedChoiceField(
        label=_("Players"), choices=PLAYER_CHOICES, coerce=int, initial=2,
        help_text=_("Up to 4 with 24 cards, 6 with 36, 8 with 52."),
    )  # fmt: skip
    transfer_by_showing_trump = forms.BooleanField(
        label=_("Transfer by showing a trump"), required=False,
        help_text=_("Perevodnoy only: show a trump of the attacked rank instead of laying it."),
    )  # fmt: skip
    throw_in = forms.ChoiceField(label=_("Who throws in"), choices=THROW_IN_CHOICES, initial="all")
    first_bout_limit = forms.TypedChoiceField(
        label=_("First bout limit"), choices=FIRST_BOUT_LIMIT_CHOICES, coerce=int, initial=6
    )
    teams = forms.ChoiceField(label=_("Teams"), choices=TEAM_CHOICES, required=False, initial="")
    joker_beats = forms.ChoiceField(
        label=_("Jokers"), choices=JOKER_BEATS_CHOICES, initial="all", required=False,
        help_text=_("Aktobe only: the red joker beats the red suits and the black joker the black ones, or each beats all."),
    )  # fmt: skip
    cheating = forms.BooleanField(
        label=_("Cheating table"), required=False,
        help_text=_("Illegal cards may be played and accused; a caught cheater pays 15% of the stake."),
    )  # fmt: skip
    redeal_five_same_suit = forms.BooleanField(
        label=_("Redeal on five of a suit"), required=False,
        help_text=_("A player dealt five or more cards of one suit may ask for a new deal before the first move."),
    )  # fmt: skip
    stake = forms.IntegerField(label=_("Stake in chips"), min_value=0, max_value=MAX_STAKE, initial=0)
    private = forms.BooleanField(
        label=_("Private table"), required=False, help_text=_("Not listed in the lobby; players join by its link.")
    )
    password = forms.CharField(
        label=_("Password"), max_length=60, required=False, widget=forms.PasswordInput(render_value=True),
        help_text=_("Optional, for a private table."),
    )  # fmt: skip
    rated = forms.BooleanField(label=_("Rated game"), required=False)
    turn_seconds = forms.TypedChoiceField(
        label=_("Time per turn"), choices=TURN_SECONDS_CHOICES, coerce=int, initial=30
    )
    bot_pace = forms.ChoiceField(
        label=_("Bots' pace"), choices=BotPace.choices, initial=BotPace.SECOND, required=False,
        help_text=_("How soon a bot answers: at once, after about a second, or slowly, as a person would."),
    )  # fmt: skip

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        self.clean_clock(data)
        if self.errors:
            return data
        data["bot_pace"] = data.get("bot_pace") or BotPace.SECOND  # a form sent without the field: the default
        preset, deck, players, teams = data["preset"], data["deck"], data["players"], data["teams"] or None
        if preset == "aktobe":
            most = Rules.from_dict({"preset": "aktobe"}).max_players
            if players > most:
                self.add_error("players", _("Aktobe seats at most %(most)d players.") % {"most": most})
        elif players > deck // 6:
            self.add_error(
                "players",
                _("A deck of %(deck)d cards seats at most %(most)d players.") % {"deck": deck, "most": deck // 6},
            )
        if teams and players != TEAM_PLAYERS[teams]:
            self.add_error(
                "teams", _("%(teams)s needs exactly %(players)d players.") % {
                    "teams": dict(TEAM_CHOICES)[teams], "players": TEAM_PLAYERS[teams]
                },
            )  # fmt: skip
        if data["transfer_by_showing_trump"] and preset != "perevodnoy":
            self.add_error("transfer_by_showing_trump", _("Transfers by showing a trump need perevodnoy."))
        if self.errors:
            return data
        try:
            data["rules"] = self.rules()
        except MalformedRecord as error:
            raise forms.ValidationError(
                _("The engine refuses this rule set: %(reason)s"), params={"reason": str(error)}
            ) from error
        return data

    def rules(self) -> Rules:
        """The engine's rule set from the cleaned options; raises MalformedRecord if it refuses them."""
        data = self.cleaned_data
        if data["preset"] == "aktobe":
            options = {name: data[name] for name in AKTOBE_OPTIONS}
            options["teams"] = data["teams"] or None
            options["joker_beats"] = data["joker_beats"] or "all"
            return Rules.from_dict({"preset": "aktobe", **options})
        return Rules.from_dict(
            {
                "preset": data["preset"],
                "deck": data["deck"],
                "transfer_by_showing_trump": data["transfer_by_showing_trump"],
                "throw_in": data["throw_in"],
                "first_bout_limit": data["first_bout_limit"],
                "teams": data["teams"] or None,
                "cheating": data["cheating"],
                "redeal_five_same_suit": data["redeal_five_same_suit"],
            }
        )


class JoinForm(forms.Form):
    seat = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)
    password = forms.CharField(
        label=_("Password"), max_length=60, required=False, widget=forms.PasswordInput
    )


class BotForm(forms.Form):
    level = forms.ChoiceField(label=_("Bot level"), choices=BotLevel.choices, initial=BotLevel.EASY)
    seat = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)


def table_form_initial(table: Table) -> dict[str, Any]:
    """The create form's initial values for a table like `table` (a finished game's "New game"): its
    rules, seats, stake, turn time and whether it is rated or private; never its password."""
    rules = dict(table.rules)
    if rules.get("hidden_cards") and rules.get("deck") == 54:
        preset = "aktobe"
    else:
        preset = "perevodnoy" if rules.get("transfer") else "podkidnoy"
    return {
        "name": table.name,
        "preset": preset,
        "deck": rules.get("deck", 36),
        "players": table.seat_count,
        "transfer_by_showing_trump": bool(rules.get("transfer_by_showing_trump")),
        "throw_in": rules.get("throw_in", "all"),
        "first_bout_limit": rules.get("first_bout_limit", 6),
        "teams": rules.get("teams") or "",
        "joker_beats": rules.get("joker_beats", "all"),
        "cheating": bool(rules.get("cheating")),
        "redeal_five_same_suit": bool(rules.get("redeal_five_same_suit")),
        "stake": table.stake,
        "private": table.private,
        "rated": table.rated,
        "turn_seconds": table.turn_seconds,
    }
