"""The account model: a user with a public profile; bots are users too, marked as such."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField


def validate_time_zone(value: str) -> None:
    from durak_site.time_zones import zone_or_none

    if value and zone_or_none(value) is None:
        raise ValidationError(_("%(zone)s is not a time zone this site knows."), params={"zone": value})


class BotLevel(models.TextChoices):
    EASY = "easy", _("Easy")
    MEDIUM = "medium", _("Medium")
    HARD = "hard", _("Hard")
    EXPERT = "expert", _("Expert")


# What each bot engine (User.bot_engine, a name in games.bots.BOTS) is, in words a player reads.
BOT_ENGINE_NAMES = {
    "random": _("random moves"),
    "easy": _("rules of thumb, often a random move"),
    "heuristic": _("rules of thumb"),
    "medium": _("rules of thumb"),
    "search": _("tree search"),
    "hard": _("tree search"),
    "expert": _("tree search"),
}


def public_name_of(*, username: str, display_name: str, is_bot: bool) -> str:
    """`User.public_name` from the account's columns, for a list read as rows (games.selectors.lobby_tables)."""
    if is_bot:
        from accounts.bot_names import bot_persona

        persona = bot_persona(username)
        if persona is not None:
            return str(persona.name)
    return display_name or username


class User(AbstractUser):
    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    country = CountryField(_("country"), blank=True)
    preferred_language = models.CharField(
        _("preferred language"), max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )
    # A bot account seats a bot engine at tables and in tournaments; it never logs in
    # (accounts.backends.HumanOnlyBackend) and has no usable password.
    is_bot = models.BooleanField(_("bot"), default=False)
    bot_engine = models.CharField(_("bot engine"), max_length=40, blank=True)
    bot_level = models.CharField(_("bot level"), max_length=10, choices=BotLevel.choices, blank=True)
    # An IANA zone (durak_site.time_zones) every time on the site is shown in; empty: the browser's.
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True, validators=[validate_time_zone])
    # Bumped to log the account out everywhere (accounts.services.user_sessions_revoke): it is part of the
    # hash every session is checked against, as the password is.
    session_generation = models.PositiveIntegerField(default=0, editable=False)
    # The game page's sound cues (static/games/sound.js): the page reads it at load, its mute switch and the
    # profile form set it (accounts.services.user_sound_muted_set, user_profile_update).
    sound_muted = models.BooleanField(
        _("mute the game page's sounds"), default=False, help_text=_("The cues of moves, your turn and the clock.")
    )
    # Finished games this person played in are left out of the monthly files of open game data (gamedata),
    # from the next file made on; files already published stay as they were.
    data_export_opt_out = models.BooleanField(
        _("leave my games out of the open game data"), default=False,
        help_text=_(
            "Every month the site publishes the finished games of its public tables as a file anyone may download "
            "and study (the Game data page). Tick this and no game you played in goes into a file made from now on; "
            "files already published stay as they are."
        ),
    )

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        permissions = [
            ("direct_tournaments", _("Can create and direct tournaments")),
            ("adjudicate_games", _("Can adjudicate disputed games")),
        ]
        constraints = [
            # A bot names its engine and level; a human names neither.
            models.CheckConstraint(
                condition=(Q(is_bot=True) & ~Q(bot_engine="") & ~Q(bot_level=""))
                | (Q(is_bot=False) & Q(bot_engine="") & Q(bot_level="")),
                name="accounts_user_bot_engine_and_level_iff_bot",
            ),
        ]

    @property
    def public_name(self) -> str:
        """The name pages show: a bench bot's in the reader's language (accounts.bot_names), else the display name."""
        return public_name_of(username=self.username, display_name=self.display_name, is_bot=self.is_bot)

    @property
    def bot_engine_display(self) -> str:
        """The bot's engine in the reader's language (its code if it has no name here)."""
        return str(BOT_ENGINE_NAMES.get(self.bot_engine, self.bot_engine))

    def _get_session_auth_hash(self, secret: str | None = None) -> str:
        """Django's hash of the password, with the session generation mixed in once it was bumped (so that
        generation 0 gives the hash Django would, and nobody is logged out by this code arriving)."""
        if not self.session_generation:
            return super()._get_session_auth_hash(secret=secret)  # type: ignore[misc]
        key_salt = "accounts.User.session_auth_hash"
        value = f"{self.password}:{self.session_generation}"
        return salted_hmac(key_salt, value, secret=secret, algorithm="sha256").hexdigest()


class LedgerKind(models.TextChoices):
    STAKE = "stake", _("Stake")
    BANK_SHARE = "bank_share", _("Share of the bank")
    PENALTY = "penalty", _("Penalty")
    GRANT = "grant", _("Grant")
    REFUND = "refund", _("Refund")


class LedgerEntry(models.Model):
    """One change of a user's chips; a balance is the sum of a user's rows and is never stored."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="ledger_entries")
    amount = models.IntegerField(_("amount"))
    kind = models.CharField(_("kind"), max_length=12, choices=LedgerKind.choices)
    game = models.ForeignKey(
        "games.Game", on_delete=models.PROTECT, null=True, blank=True, related_name="ledger_entries"
    )
    note = models.CharField(_("note"), max_length=100, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "pk"]
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger entries")
        indexes = [models.Index(fields=["user", "created"])]

    def __str__(self) -> str:
        return f"{self.user_id} {self.amount:+d} {self.kind}"
