"""Creating a tournament: its settings (TournamentSettings) checked together, every problem said at once in a
translated message, then the row, the log's first entry and its start scheduled."""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games import services as game_services
from games.engine import EngineError, Rules
from ratings.models import PoolFormat, RatingPool
from tournaments import pairing as pure
from tournaments.models import AuditAction, DuplicateScoring, Format, NoShow, Seating, Tournament, TournamentStatus
from tournaments.pairing.round_robin import MAX_PLAYERS as ROUND_ROBIN_MOST
from tournaments.pairing.tables import MAX_TABLE, MIN_TABLE
from tournaments.services._common import MIN_ENTRANTS, _audit, _changed, _schedule, can_create

MAX_SWISS_ROUNDS = 30
MAX_GAMES_PER_PAIRING = 9
POOL_FORMATS = {Seating.HEADS_UP: PoolFormat.HEADS_UP, Seating.TABLES: PoolFormat.MULTI, Seating.TEAMS: PoolFormat.TEAMS_2V2}


@dataclasses.dataclass(frozen=True)
class TournamentSettings:
    """What a tournament is created with: tournament_create's keyword arguments (but its director) and their
    defaults. The model's fields say what each means; ``rounds`` is a Swiss's number of rounds."""

    name: str
    starts_at: datetime.datetime
    rules: Rules | Mapping[str, Any] | None = None
    rating_pool: RatingPool | None = None
    description: str = ""
    format: str = Format.SWISS
    rounds: int = 5
    seating: str = Seating.HEADS_UP
    table_size: int = 4
    team_size: int = 2
    games_per_pairing: int = 1
    points_win: float = 1.0
    points_draw: float = 0.5
    place_points: Sequence[float] = ()
    tiebreaks: Sequence[str] | None = None
    registration_opens: datetime.datetime | None = None
    registration_closes: datetime.datetime | None = None
    round_interval: int = 60
    turn_seconds: int = 30
    clock_base: int | None = None
    clock_increment: int = 0
    grace_seconds: int = 300
    capacity: int | None = None
    bots_allowed: bool = True
    no_show: str = NoShow.FORFEIT
    auto_advance: bool = True
    analyse_games: bool = False
    duplicate: bool = False
    duplicate_scoring: str = DuplicateScoring.TIEBREAK
    qualifier: Tournament | None = None
    qualify_count: int = 0

    @property
    def round_robin(self) -> bool:
        return self.format != Format.SWISS


def _checked_rules(rules: Rules | Mapping[str, Any]) -> Rules:
    try:
        return rules if isinstance(rules, Rules) else Rules.from_dict(dict(rules))
    except (EngineError, TypeError, ValueError) as error:
        raise ValidationError(_("The rule set is not valid: %(error)s") % {"error": error}) from None


def _rules_for_seating(rules: Rules, seating: str, team_size: int) -> Rules:
    """The rule set as the seating plays it: teams of the right size, or none."""
    teams = f"{team_size}v{team_size}" if seating == Seating.TEAMS else None
    if rules.teams == teams:
        return rules
    return _checked_rules({**rules.to_dict(), "teams": teams})


def _normalised(chosen: TournamentSettings) -> TournamentSettings:
    """The settings as they are stored: an unknown format or seating refused at once, the sizes a seating does
    not use set to what it plays, the defaults that depend on others filled in, the text stripped."""
    if chosen.format not in Format.values:
        raise ValidationError(_("Unknown format %(format)s.") % {"format": chosen.format})
    if chosen.seating not in Seating.values:
        raise ValidationError(_("Unknown seating %(seating)s.") % {"seating": chosen.seating})
    order = pure.ROUND_ROBIN_ORDER if chosen.round_robin else pure.SWISS_ORDER
    opens = chosen.registration_opens or min(timezone.now(), chosen.starts_at)
    return dataclasses.replace(
        chosen, name=chosen.name.strip()[:100], description=chosen.description.strip(),
        table_size=chosen.table_size if chosen.seating == Seating.TABLES else 2,
        team_size=chosen.team_size if chosen.seating == Seating.TEAMS else 1,
        place_points=tuple(float(value) for value in chosen.place_points),
        tiebreaks=tuple(chosen.tiebreaks if chosen.tiebreaks is not None else (tiebreak.value for tiebreak in order)),
        registration_opens=opens, registration_closes=chosen.registration_closes or chosen.starts_at,
        clock_increment=chosen.clock_increment if chosen.clock_base is not None else 0,
        qualify_count=chosen.qualify_count if chosen.qualifier is not None else 0,
    )  # fmt: skip


def _rules_and_pool(chosen: TournamentSettings) -> tuple[Rules, list[str]]:
    """The rule set the games are dealt with (the rating pool's, if it has one), and what is wrong with the
    pool for this seating."""
    pool = chosen.rating_pool
    if pool is None:
        rules = _checked_rules(chosen.rules or {"preset": "podkidnoy"})
        return _rules_for_seating(rules, chosen.seating, chosen.team_size), []
    problems: list[str] = []
    if not pool.active:
        problems.append(str(_("That rating pool no longer rates games.")))
    if pool.format != POOL_FORMATS[Seating(chosen.seating)]:
        problems.append(str(_("The rating pool is for another kind of game than this seating.")))
    players = chosen.table_size if chosen.seating == Seating.TABLES else 2 * chosen.team_size
    if not pool.min_players <= players <= pool.max_players:
        problems.append(str(_("The rating pool does not rate games of %(count)s players.") % {"count": players}))
    return _checked_rules(pool.rules), problems


def _format_problems(chosen: TournamentSettings, rules: Rules) -> list[str]:
    """The seating against the deck, the format against the seating, the numbers of rounds and games."""
    problems: list[str] = []
    seating, round_robin = chosen.seating, chosen.round_robin
    if seating == Seating.TABLES and not MIN_TABLE <= chosen.table_size <= min(MAX_TABLE, rules.max_players):
        problems.append(str(_("A table seats 3 to %(most)s players with this deck.") % {"most": min(6, rules.max_players)}))
    if seating == Seating.TEAMS and chosen.team_size not in (2, 3):
        problems.append(str(_("Teams have 2 or 3 players.")))
    if seating == Seating.TEAMS and 2 * chosen.team_size > rules.max_players:
        problems.append(str(_("This deck does not seat two teams of %(size)s.") % {"size": chosen.team_size}))
    if round_robin and seating == Seating.TABLES:
        problems.append(str(_("A round robin is played heads-up or in teams, not at tables.")))
    if round_robin and chosen.capacity is not None and chosen.capacity > ROUND_ROBIN_MOST:
        problems.append(str(_("A round robin takes at most %(most)s entrants.") % {"most": ROUND_ROBIN_MOST}))
    if not round_robin and not 1 <= chosen.rounds <= MAX_SWISS_ROUNDS:
        problems.append(str(_("A Swiss has 1 to %(most)s rounds.") % {"most": MAX_SWISS_ROUNDS}))
    if not 1 <= chosen.games_per_pairing <= MAX_GAMES_PER_PAIRING:
        problems.append(str(_("A pairing plays 1 to %(most)s games.") % {"most": MAX_GAMES_PER_PAIRING}))
    if chosen.duplicate and seating == Seating.TEAMS:
        problems.append(str(_("Duplicate deals are played heads-up or at tables, not in teams.")))
    if chosen.duplicate and rules.redeal_five_same_suit:
        problems.append(str(_("Duplicate deals cannot be redealt: play them without the five-of-a-suit redeal.")))
    if chosen.duplicate_scoring not in DuplicateScoring.values:
        problems.append(str(_("Unknown duplicate scoring.")))
    return problems


def _scoring_problems(chosen: TournamentSettings) -> list[str]:
    """The points of a win, a draw and each place, and the tie-breaks."""
    problems: list[str] = []
    if not chosen.points_win > chosen.points_draw >= 0:
        problems.append(str(_("A win must be worth more than a draw, and a draw nothing negative.")))
    places = chosen.place_points
    if places and (
        len(places) > chosen.table_size - 1 or any(value < 0 for value in places)
        or any(a < b for a, b in zip(places, places[1:], strict=False))
    ):  # fmt: skip
        problems.append(str(_("Points by place go down from the first place, at most one value a place but the durak's.")))
    order = list(chosen.tiebreaks or ())
    if any(value not in {tiebreak.value for tiebreak in pure.TieBreak} for value in order) or len(set(order)) != len(order):
        problems.append(str(_("Unknown or repeated tie-break.")))
    return problems


def _timing_problems(chosen: TournamentSettings) -> list[str]:
    """Registration, the turn, the clock, the interval and grace period, and who may come or not."""
    problems: list[str] = []
    assert chosen.registration_opens is not None and chosen.registration_closes is not None  # _normalised
    if not chosen.registration_opens <= chosen.registration_closes <= chosen.starts_at:
        problems.append(str(_("Registration opens, then closes, no later than the start.")))
    if not game_services.MIN_TURN_SECONDS <= chosen.turn_seconds <= game_services.MAX_TURN_SECONDS:
        problems.append(str(_("A turn lasts %(least)s seconds at least.") % {"least": game_services.MIN_TURN_SECONDS}))
    try:
        game_services.clock_check(base_seconds=chosen.clock_base, increment_seconds=chosen.clock_increment)
    except ValidationError as error:
        problems.extend(str(message) for message in error.messages)
    if chosen.round_interval < 0 or chosen.grace_seconds < 0:
        problems.append(str(_("Times cannot be negative.")))
    if chosen.capacity is not None and chosen.capacity < MIN_ENTRANTS[Seating(chosen.seating)]:
        problems.append(str(_("Room for fewer entrants than a game needs.")))
    if chosen.no_show not in NoShow.values:
        problems.append(str(_("Unknown rule for no-shows.")))
    return problems


def _qualifier_problems(chosen: TournamentSettings) -> list[str]:
    """A final's qualifier and how many of its entrants qualify."""
    qualifier = chosen.qualifier
    if qualifier is None:
        return []
    problems: list[str] = []
    if chosen.qualify_count < MIN_ENTRANTS[Seating(chosen.seating)]:
        problems.append(str(_("Say how many entrants qualify.")))
    if qualifier.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        problems.append(str(_("The qualifier is already over.")))
    if qualifier.seating != chosen.seating or qualifier.team_size != chosen.team_size:
        problems.append(str(_("A final is seated as its qualifier.")))
    if chosen.round_robin and chosen.qualify_count > ROUND_ROBIN_MOST:
        problems.append(str(_("A round robin takes at most %(most)s entrants.") % {"most": ROUND_ROBIN_MOST}))
    return problems


def _row(chosen: TournamentSettings, rules: Rules) -> dict[str, Any]:
    """The Tournament row's fields from the checked settings (a round robin's rounds are set at its start)."""
    row = {field.name: getattr(chosen, field.name) for field in dataclasses.fields(chosen)}
    del row["rounds"]
    row.update(
        rules=rules.to_dict(), rounds_planned=0 if chosen.round_robin else chosen.rounds,
        place_points=list(chosen.place_points), tiebreaks=list(chosen.tiebreaks or ()),
    )  # fmt: skip
    return row


@transaction.atomic
def tournament_create(*, director: User, **settings: Any) -> Tournament:
    """Create a tournament open for registration; it starts by itself at ``starts_at``. The keywords are
    TournamentSettings' fields (``name`` and ``starts_at`` required); what is wrong with them is refused in
    one ValidationError that lists every problem."""
    if not can_create(user=director):
        raise ValidationError(_("Only a tournament director may create a tournament."))
    chosen = _normalised(TournamentSettings(**settings))
    rules, problems = _rules_and_pool(chosen)
    if not chosen.name:
        problems.insert(0, str(_("A tournament needs a name.")))
    problems += _format_problems(chosen, rules) + _scoring_problems(chosen)
    problems += _timing_problems(chosen) + _qualifier_problems(chosen)
    if problems:
        raise ValidationError(problems)
    tournament = Tournament.objects.create(director=director, **_row(chosen, rules))
    _audit(tournament, AuditAction.CREATED, actor=director, subject=tournament.name)
    _schedule("start_tournament", (tournament.pk,), tournament.starts_at)
    _changed(tournament)
    return tournament
