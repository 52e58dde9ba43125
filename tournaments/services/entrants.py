"""Entrants and check-in: finding people to enter by name, bots in numbers, a CSV of players with invitations
for those without an account, a private event's registration code, and the players' presence before each
round (the interface's "check-in"; taking one's seat in a dealt game is pairing_check_in, a different thing).

Every write goes through here and is logged (tournaments.services._common._audit), with the reason where a director
acts. A user error is a ValidationError with a translated message and changes nothing.
"""

from __future__ import annotations

import csv
import datetime
import io
import secrets
from dataclasses import dataclass, field
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.bot_names import BOT_BENCH, bench_persona, english_name
from accounts.models import BotLevel, User
from accounts.services import bot_account_ensure, user_sign_up
from ratings.models import PlayerRating
from tournaments.models import (
    Attendance, AuditAction, Entrant, EntrantStatus, Invitation, Round, RoundStatus, Seating, TeamMember, Tournament,
    TournamentStatus,
)
from tournaments.services._common import _audit, _changed, _directed, _locked, _require_director, _subject
from tournaments.services.register import rating_pool_of, tournament_register

SEARCH_RESULTS = 8
SEARCH_SCANNED = 200  # rows read from the database for one query before ranking
MOST_BOTS_AT_ONCE = 64
CSV_MOST_LINES = 500
CSV_MOST_BYTES = 200_000
NAME_LONGEST = 40  # accounts.User.display_name
LOWEST_RATING, HIGHEST_RATING = 0.0, 4000.0
CSV_HEADER_WORDS = {"name", "player", "имя", "игрок", "фио", "участник"}
PRESENCE_LONGEST_MINUTES = 24 * 60


# --- finding people ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """One suggestion of the people search: the person, his rating in the tournament's pool (None: unrated),
    and whether he is entered already (shown, not offered)."""

    user: User
    rating: float | None
    entered: bool


def _entered_ids(tournament: Tournament) -> set[int]:
    entered = set(Entrant.objects.filter(tournament=tournament).values_list("user_id", flat=True))
    return entered | set(TeamMember.objects.filter(tournament=tournament).values_list("user_id", flat=True))


def _rank(user: User, wanted: str) -> tuple[int, str]:
    """Exact name first, then a name beginning with it, a word of the name, a username beginning with it, and
    a name containing it."""
    name, username = user.public_name.casefold(), user.username.casefold()
    words = name.split()
    if wanted in (name, username):
        order = 0
    elif name.startswith(wanted):
        order = 1
    elif any(word.startswith(wanted) for word in words):
        order = 2
    elif username.startswith(wanted):
        order = 3
    else:
        order = 4
    return order, name


def people_search(*, tournament: Tournament, query: str, by: User) -> list[Candidate]:
    """People whose display name or username contains ``query`` (case-insensitive, Cyrillic too), best match
    first: active human accounts only (bots are entered by level, see bots_enter)."""
    _require_director(by, tournament)
    wanted = " ".join(query.split()).casefold()
    if not wanted:
        return []
    # Asked in each spelling (_spellings), kept when it matches folded properly.
    matches = Q()
    for spelling in _spellings(wanted):
        matches |= Q(display_name__icontains=spelling) | Q(username__icontains=spelling)
    rows = list(User.objects.filter(matches, is_active=True, is_bot=False).order_by("pk")[:SEARCH_SCANNED])
    found = [user for user in rows if wanted in user.public_name.casefold() or wanted in user.username.casefold()]
    found.sort(key=lambda user: _rank(user, wanted))
    found = found[:SEARCH_RESULTS]
    pool = rating_pool_of(tournament)
    ratings: dict[int, float] = {}
    if pool is not None:
        ratings = dict(PlayerRating.objects.filter(pool=pool, user__in=found).values_list("user_id", "rating"))
    entered = _entered_ids(tournament)
    return [Candidate(user=user, rating=ratings.get(user.pk), entered=user.pk in entered) for user in found]


@transaction.atomic
def person_enter(*, tournament: Tournament, user_id: int, by: User, reason: str = "") -> Entrant:
    """Enter the person the director chose in the search (by his account's id, never a typed name)."""
    _require_director(by, tournament)
    user = User.objects.filter(pk=user_id, is_active=True, is_bot=False).first()
    if user is None:
        raise ValidationError(_("That person cannot be found: search again."))
    return tournament_register(tournament=tournament, user=user, by=by, reason=reason)


# --- bots -------------------------------------------------------------------------------------------


@transaction.atomic
def bots_enter(*, tournament: Tournament, level: str, count: int, by: User, reason: str = "") -> list[Entrant]:
    """Enter ``count`` bots of ``level`` in one act, each a bot account of its own not entered yet (the
    bench's names, then the bench again as "II", "III", ...)."""
    tournament = _locked(tournament)
    _require_director(by, tournament)
    if level not in BOT_BENCH:
        raise ValidationError(_("Choose a bot level."))
    if not 1 <= count <= MOST_BOTS_AT_ONCE:
        raise ValidationError(_("Enter between 1 and %(most)s bots at once.") % {"most": MOST_BOTS_AT_ONCE})
    if not tournament.bots_allowed:
        raise ValidationError(_("Bots may not enter this tournament."))
    if tournament.seating == Seating.TEAMS:
        raise ValidationError(_("A team is entered with its members; bots cannot be added in numbers here."))
    if tournament.capacity is not None:
        active = Entrant.objects.filter(tournament=tournament, status=EntrantStatus.ACTIVE).count()
        if active + count > tournament.capacity:
            raise ValidationError(
                _("Only %(free)s places are left.") % {"free": max(tournament.capacity - active, 0)}
            )
    entered = _entered_ids(tournament)
    added: list[Entrant] = []
    index = 0
    while len(added) < count:
        persona = bench_persona(level, index)
        index += 1
        account = User.objects.filter(username=persona.username).first()
        if account is not None and (not account.is_bot or account.pk in entered):
            continue
        if account is None or account.bot_level != level:
            account = bot_account_ensure(
                username=persona.username, display_name=english_name(persona), engine=persona.engine,
                level=BotLevel(level),
            )
        added.append(tournament_register(tournament=tournament, user=account, by=by, reason=reason))
        entered.add(account.pk)
    return added


# --- a CSV of players -------------------------------------------------------------------------------


@dataclass
class CsvLine:
    """One line of the file: what it says, or why it cannot be read."""

    number: int  # the line's number in the file, 1 first
    name: str = ""
    rating: float | None = None
    email: str = ""
    error: str = ""


class ImportOutcome:
    MATCHED = "matched"
    INVITED = "invited"
    REFUSED = "refused"


@dataclass
class ImportLine:
    """What applying the import does with one line: enters an account, invites, or refuses with the reason."""

    line: CsvLine
    outcome: str
    user: User | None = None
    reason: str = ""


@dataclass
class ImportResult:
    lines: list[ImportLine]
    invitations: list[Invitation] = field(default_factory=list)

    def count(self, outcome: str) -> int:
        return sum(1 for line in self.lines if line.outcome == outcome)


def players_csv_text(data: bytes | str) -> str:
    """The file as text (UTF-8, with or without the BOM Excel writes), or a ValidationError."""
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    if len(data) > CSV_MOST_BYTES:
        raise ValidationError(_("The file is too large: at most %(lines)s players at once.") % {"lines": CSV_MOST_LINES})
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValidationError(
            _("The file is not in UTF-8: in Excel choose “CSV UTF-8” when saving it.")
        ) from None


def _delimiter(text: str) -> str:
    """Semicolons (Excel in Russia) or commas, whichever the first line uses more."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    return ";" if first.count(";") > first.count(",") else ","


def _parse_row(number: int, cells: list[str]) -> CsvLine:
    cells = [cell.strip() for cell in cells]
    while cells and not cells[-1]:
        cells.pop()
    line = CsvLine(number=number)
    if len(cells) > 3:
        line.error = gettext("More than three columns: write the name, the rating and the e-mail.")
        return line
    name, rating, email = (cells + ["", "", ""])[:3]
    line.name, line.email = " ".join(name.split()), email
    if not line.name:
        line.error = gettext("The name is missing.")
    elif len(line.name) > NAME_LONGEST:
        line.error = gettext("The name is longer than %(most)s characters.") % {"most": NAME_LONGEST}
    elif rating:
        try:
            line.rating = float(rating.replace(",", "."))
        except ValueError:
            line.error = gettext("The rating “%(rating)s” is not a number.") % {"rating": rating[:20]}
        else:
            if not LOWEST_RATING <= line.rating <= HIGHEST_RATING:
                line.error = gettext("The rating %(rating)s is out of range (0 to 4000).") % {"rating": rating[:20]}
    if not line.error and email:
        try:
            validate_email(email)
        except ValidationError:
            line.error = gettext("“%(email)s” is not an e-mail address.") % {"email": email[:60]}
    return line


def players_csv_parse(data: bytes | str) -> list[CsvLine]:
    """The file's lines (name; optional rating; optional e-mail), a header line left out; a line that cannot
    be read carries its error. A file that cannot be read at all raises a ValidationError."""
    text = players_csv_text(data)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text), strict=True)
    lines: list[CsvLine] = []
    read = 0  # the file's lines read so far: a record (a quoted field may hold a line break) starts after them
    try:
        for row in reader:
            number, read = read + 1, reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if not lines and row[0].strip().casefold() in CSV_HEADER_WORDS:
                continue  # the header
            if len(lines) >= CSV_MOST_LINES:
                raise ValidationError(
                    _("The file is too large: at most %(lines)s players at once.") % {"lines": CSV_MOST_LINES}
                )
            lines.append(_parse_row(number, row))
    except csv.Error:
        raise ValidationError(
            _("Line %(number)s cannot be read: a quotation mark is not closed.") % {"number": read + 1}
        ) from None
    if not lines:
        raise ValidationError(_("The file lists no players."))
    return lines


def _one(users: list[User]) -> tuple[User | None, bool]:
    """The only account found, and whether several were."""
    return (users[0] if len(users) == 1 else None), len(users) > 1


def _spellings(text: str) -> set[str]:
    """``text`` as typed, in lower case, capitalised, title case and capitals: SQLite's case-insensitive
    comparisons fold ASCII only, and a Cyrillic name is written one of these ways."""
    folded = text.strip().casefold()
    return {text.strip(), folded, folded.capitalize(), folded.title(), folded.upper()}


def _named(field_name: str, name: str) -> list[User]:
    """The accounts whose ``field_name`` is ``name`` in any case (Cyrillic too), at most a few."""
    matches = Q()
    for spelling in _spellings(name):
        matches |= Q(**{f"{field_name}__iexact": spelling})
    wanted = name.casefold()
    return [user for user in User.objects.filter(matches)[:5] if getattr(user, field_name).casefold() == wanted]


def _match(line: CsvLine) -> tuple[User | None, str]:
    """The existing account the line names, or None with the reason it cannot be matched ("" when nobody
    has that name or address: he is invited)."""
    if line.email:
        user, several = _one(list(User.objects.filter(email__iexact=line.email)[:2]))
        if several:
            return None, gettext("Several accounts have this e-mail: add him by the name search.")
        if user is not None:
            return user, ""
    # The display name or the username, whichever names exactly one account.
    found = {one.pk: one for one in _named("display_name", line.name) + _named("username", line.name)}
    user, several = _one(list(found.values()))
    if several:
        return None, gettext("Several accounts are called so: add him by the name search.")
    return user, ""


def players_import_plan(*, tournament: Tournament, data: bytes | str, by: User) -> list[ImportLine]:
    """What importing the file would do, line by line (the director's preview; players_import applies it)."""
    _require_director(by, tournament)
    entered = _entered_ids(tournament)
    invited = {name.casefold() for name in Invitation.objects.filter(
        tournament=tournament, accepted_by__isnull=True).values_list("name", flat=True)}
    seen_users: set[int] = set()
    seen_names: set[str] = set()
    plan: list[ImportLine] = []
    for line in players_csv_parse(data):
        if line.error:
            plan.append(ImportLine(line, ImportOutcome.REFUSED, reason=line.error))
            continue
        key = line.email.casefold() or line.name.casefold()
        if key in seen_names:
            plan.append(ImportLine(line, ImportOutcome.REFUSED, reason=gettext("The same player is on an earlier line.")))
            continue
        seen_names.add(key)
        user, problem = _match(line)
        if problem:
            plan.append(ImportLine(line, ImportOutcome.REFUSED, reason=problem))
        elif user is None:
            if line.name.casefold() in invited:
                plan.append(ImportLine(line, ImportOutcome.REFUSED, reason=gettext("Already invited.")))
            else:
                plan.append(ImportLine(line, ImportOutcome.INVITED))
        elif user.is_bot:
            plan.append(ImportLine(line, ImportOutcome.REFUSED, user, gettext("This is a bot: add bots by level.")))
        elif not user.is_active:
            plan.append(ImportLine(line, ImportOutcome.REFUSED, user, gettext("This account is closed.")))
        elif user.pk in entered or user.pk in seen_users:
            plan.append(ImportLine(line, ImportOutcome.REFUSED, user, gettext("Already entered.")))
        else:
            seen_users.add(user.pk)
            plan.append(ImportLine(line, ImportOutcome.MATCHED, user))
    return plan


def invitation_link(invitation: Invitation, base_url: str = "") -> str:
    return base_url.rstrip("/") + reverse("tournaments:invitation", args=[invitation.token])


@transaction.atomic
def players_import(
    *, tournament: Tournament, data: bytes | str, by: User, reason: str = "", base_url: str = ""
) -> ImportResult:
    """Apply the file in one transaction: matched accounts are entered (with the file's rating as their
    seeding rating when it gives one), the others invited (mailed when the line has an address; ``base_url``
    makes the mailed link absolute); refused lines change nothing. One entry the rules refuse (the
    tournament full, say) refuses the whole file."""
    tournament = _locked(tournament)
    _require_director(by, tournament)
    if tournament.status not in (TournamentStatus.REGISTRATION, TournamentStatus.RUNNING):
        raise ValidationError(_("This tournament is over."))
    plan = players_import_plan(tournament=tournament, data=data, by=by)
    result = ImportResult(lines=plan)
    for line in plan:
        if line.outcome == ImportOutcome.MATCHED:
            assert line.user is not None
            try:
                tournament_register(tournament=tournament, user=line.user, by=by, rating=line.line.rating,
                                    reason=reason or gettext("From a list of players."))
            except ValidationError as error:
                raise ValidationError(
                    _("Line %(number)s: %(error)s") % {"number": line.line.number, "error": " ".join(error.messages)}
                ) from None
        elif line.outcome == ImportOutcome.INVITED:
            invitation = Invitation.objects.create(
                tournament=tournament, name=line.line.name, email=line.line.email, rating=line.line.rating,
                token=secrets.token_urlsafe(24), created_by=by,
            )  # fmt: skip
            result.invitations.append(invitation)
            _audit(tournament, AuditAction.INVITED, actor=by, subject=invitation.name, reason=reason.strip())
            if invitation.email:
                _mail_invitation(tournament, invitation, invitation_link(invitation, base_url))
    _changed(tournament)
    return result


def _mail_invitation(tournament: Tournament, invitation: Invitation, link: str) -> None:
    subject = gettext("An invitation to %(tournament)s") % {"tournament": tournament.name}
    body = gettext(
        "Hello, %(name)s!\n\nYou are invited to play in %(tournament)s. Follow this link to create your account "
        "and you are entered at once:\n\n%(link)s\n"
    ) % {"name": invitation.name, "tournament": tournament.name, "link": link}
    address = invitation.email
    transaction.on_commit(lambda: send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [address]))


def _open_invitation(token: str) -> Invitation:
    invitation = Invitation.objects.select_for_update().select_related("tournament", "created_by").filter(
        token=token).first()
    if invitation is None:
        raise ValidationError(_("This invitation link is not valid."))
    if invitation.accepted_by_id is not None:
        raise ValidationError(_("This invitation has been used already."))
    return invitation


def invitation_find(*, token: str) -> Invitation | None:
    return Invitation.objects.select_related("tournament").filter(token=token).first()


def _accept(invitation: Invitation, user: User) -> Entrant:
    entrant = tournament_register(
        tournament=invitation.tournament, user=user, by=invitation.created_by, rating=invitation.rating,
        reason=gettext("Invitation accepted."),
    )  # fmt: skip
    invitation.accepted_by, invitation.accepted_at = user, timezone.now()
    invitation.save(update_fields=["accepted_by", "accepted_at"])
    _audit(invitation.tournament, AuditAction.INVITATION_ACCEPTED, actor=user, subject=_subject(entrant))
    return entrant


@transaction.atomic
def invitation_sign_up(
    *, token: str, username: str, email: str, password: str, display_name: str, preferred_language: str
) -> tuple[User, Entrant]:
    """Create the invited player's account and enter him; the link works once."""
    invitation = _open_invitation(token)
    user = user_sign_up(username=username, email=email, password=password, preferred_language=preferred_language)
    user.display_name = " ".join(display_name.split())[:NAME_LONGEST]
    user.save(update_fields=["display_name"])
    return user, _accept(invitation, user)


@transaction.atomic
def invitation_accept(*, token: str, user: User) -> Entrant:
    """A player who has an account already follows his invitation: he is entered with it."""
    if user.is_bot:
        raise ValidationError(_("A bot is entered by the director."))
    return _accept(_open_invitation(token), user)


# --- the registration code ----------------------------------------------------------------------------


@transaction.atomic
def registration_code_set(*, tournament: Tournament, by: User, required: bool, reason: str = "") -> Tournament:
    """Turn "by invitation code" on (a new code) or off (anyone may register)."""
    tournament = _locked(tournament)
    _require_director(by, tournament)
    tournament.registration_code = secrets.token_urlsafe(9) if required else ""
    tournament.save(update_fields=["registration_code"])
    _audit(tournament, AuditAction.CODE_CHANGED, actor=by, reason=reason.strip(),
           subject=gettext("by invitation code") if required else gettext("open to all"))
    _changed(tournament)
    return tournament


def registration_code_ok(tournament: Tournament, code: str) -> bool:
    return not tournament.registration_code or secrets.compare_digest(code.strip().encode(), tournament.registration_code.encode())


# --- presence before each round ("check-in") ---------------------------------------------------------------


@transaction.atomic
def presence_set(*, tournament: Tournament, by: User, minutes: int, reason: str = "") -> Tournament:
    """Players confirm their presence ``minutes`` before each round (0: they need not)."""
    tournament = _locked(tournament)
    _require_director(by, tournament)
    if not 0 <= minutes <= PRESENCE_LONGEST_MINUTES:
        raise ValidationError(_("Between 0 and %(most)s minutes.") % {"most": PRESENCE_LONGEST_MINUTES})
    if minutes and tournament.is_round_robin:
        raise ValidationError(_("A round robin's rounds are fixed: its players do not check in."))
    tournament.presence_minutes = minutes
    tournament.save(update_fields=["presence_minutes"])
    _audit(tournament, AuditAction.PRESENCE_SET, actor=by, subject=str(minutes), reason=reason.strip())
    _changed(tournament)
    return tournament


def presence_round(tournament: Tournament, *, now: datetime.datetime | None = None) -> int | None:
    """The round whose check-in is open now, or None: the window opens ``presence_minutes`` before the round
    starts (a round waiting for the director to start it is open until he does)."""
    if not tournament.presence_minutes or tournament.is_round_robin:
        return None
    now = now or timezone.now()
    window = datetime.timedelta(minutes=tournament.presence_minutes)
    if tournament.status == TournamentStatus.REGISTRATION:
        return 1 if now >= tournament.starts_at - window else None
    if tournament.status != TournamentStatus.RUNNING or tournament.current_round >= tournament.rounds_planned:
        return None
    number = tournament.current_round + 1
    round_ = Round.objects.filter(tournament=tournament, number=number, status=RoundStatus.SCHEDULED).first()
    if round_ is None:
        return None
    return number if round_.starts_at is None or now >= round_.starts_at - window else None


@transaction.atomic
def presence_confirm(*, tournament: Tournament, user: User, now: datetime.datetime | None = None) -> Attendance:
    """The player says he is here for the next round (within its check-in window)."""
    tournament = _locked(tournament)
    entrant = Entrant.objects.select_related("user").filter(tournament=tournament, user=user).first()
    if entrant is None or entrant.status != EntrantStatus.ACTIVE:
        raise ValidationError(_("You are not entered in this tournament."))
    number = presence_round(tournament, now=now)
    if number is None:
        raise ValidationError(_("Check-in is not open now."))
    if entrant.first_round > number:
        raise ValidationError(_("You play from round %(number)s on.") % {"number": entrant.first_round})
    attendance = Attendance.objects.filter(entrant=entrant, round_number=number).first()
    if attendance is not None and not attendance.present and attendance.by_id is not None:
        raise ValidationError(_("The director has marked you absent from this round; speak to him."))
    if attendance is not None and attendance.present:
        return attendance
    attendance, _created = Attendance.objects.update_or_create(
        entrant=entrant, round_number=number,
        defaults={"tournament": tournament, "present": True, "by": None, "reason": ""},
    )  # fmt: skip
    _audit(tournament, AuditAction.PRESENT, actor=user, round_number=number, subject=_subject(entrant))
    _changed(tournament)
    return attendance


@transaction.atomic
def presence_mark(*, entrant: Entrant, by: User, present: bool, reason: str) -> Attendance:
    """The director marks an entrant present or absent for the next round, whatever he did himself."""
    tournament, reason = _directed(entrant.tournament_id, by, reason)
    if not tournament.presence_minutes or tournament.is_round_robin:
        raise ValidationError(_("Check-in is off in this tournament."))
    if tournament.status not in (TournamentStatus.REGISTRATION, TournamentStatus.RUNNING):
        raise ValidationError(_("This tournament is over."))
    number = tournament.current_round + 1
    if number > tournament.rounds_planned:
        raise ValidationError(_("The last round is already paired."))
    entrant = Entrant.objects.select_related("user").get(pk=entrant.pk)
    if not entrant.active:
        raise ValidationError(_("%(name)s is not playing any more.") % {"name": entrant.user.public_name})
    attendance, _created = Attendance.objects.update_or_create(
        entrant=entrant, round_number=number,
        defaults={"tournament": tournament, "present": present, "by": by, "reason": reason},
    )  # fmt: skip
    _audit(tournament, AuditAction.PRESENT if present else AuditAction.ABSENT, actor=by, round_number=number,
           subject=_subject(entrant), reason=reason)
    _changed(tournament)
    return attendance


def presence_absentees(tournament: Tournament, number: int, entrants: list[Entrant]) -> list[str]:
    """The keys of the active entrants left out of round ``number`` as absent: check-in is on and they did
    not confirm (or the director marked them absent). The pure pairing never sees them, so they get no
    pairing and no points, and the round counts as not played for their tie-breaks (FIDE C.07: an absent
    player scores nothing)."""
    if not tournament.presence_minutes or tournament.is_round_robin:
        return []
    present = set(
        Attendance.objects.filter(tournament=tournament, round_number=number, present=True).values_list(
            "entrant_id", flat=True)
    )
    return [
        entrant.key for entrant in entrants
        if entrant.active and entrant.first_round <= number and entrant.pk not in present
        and not entrant.user.is_bot  # bots are always there
    ]  # fmt: skip


def presence_record_absent(tournament: Tournament, number: int, keys: list[str]) -> None:
    """Write down who the paired round ``number`` left out as absent (for its page and the log)."""
    if not keys:
        return
    numbers = [int(key[1:]) for key in keys]
    for entrant in Entrant.objects.select_related("user").filter(tournament=tournament, number__in=numbers):
        attendance, created = Attendance.objects.get_or_create(
            entrant=entrant, round_number=number, defaults={"tournament": tournament, "present": False}
        )
        if created or attendance.by_id is None:
            _audit(tournament, AuditAction.ABSENT, round_number=number, subject=_subject(entrant),
                   reason=gettext("Did not check in before the round."))


def presence_lines(tournament: Tournament, number: int) -> dict[int, Attendance]:
    """Each entrant's attendance row for round ``number``, by entrant id."""
    return {row.entrant_id: row for row in Attendance.objects.filter(tournament=tournament, round_number=number)}


def absent_in_round(tournament: Tournament, number: int) -> list[Entrant]:
    """The entrants the paired round ``number`` left out as absent."""
    ids = Attendance.objects.filter(tournament=tournament, round_number=number, present=False).values("entrant_id")
    return list(Entrant.objects.select_related("user").filter(pk__in=ids))
