"""The tournament pages: the list, a tournament with its live standings, rounds, crosstable, entrants and
log, the exports, entering and taking one's seat, a director's new tournament and his acts.

Views validate and call tournaments.services; what a page shows comes from tournaments.selectors. A
director's act that the service refuses is shown as a message and changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import User
from tournaments import duplicate_selectors, selectors, services
from tournaments.pairing.trf import TrfError
from tournaments.services import presets
from tournaments.forms import (
    TIEBREAK_LABELS, DisputeForm, DisputeResolveForm, LateEntryForm, TeamEntryForm, TournamentCreateForm,
    parse_numbers, parse_places,
)
from tournaments.models import (
    Dispute, Entrant, EntrantStatus, MatchGame, Pairing, Seating, Tournament, TournamentStatus,
)

LIVE_BOARDS = 60  # the tournament page lists this many boards of the current round; the round's page has all


def _user(request: HttpRequest) -> User:
    return cast(User, request.user)  # login_required: never anonymous here


def _error_text(error: ValidationError) -> str:
    return " ".join(str(message) for message in error.messages)


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(
        Tournament.objects.select_related("director", "rating_pool", "qualifier"), pk=tournament_id
    )


def director_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A director's view: it is given the tournament (404 if there is none) and the director in place of the
    tournament's id; anyone who may not direct the tournament is refused."""

    @wraps(view)
    def checked(request: HttpRequest, tournament_id: int, **kwargs: Any) -> HttpResponse:
        tournament = _tournament(tournament_id)
        user = _user(request)
        if not services.can_direct(user=user, tournament=tournament):
            return HttpResponseForbidden(_("Only the tournament's director may do that."))
        return view(request, tournament, user, **kwargs)

    return checked


def _told(request: HttpRequest, service: Callable[[], object], done: str) -> None:
    """Run ``service``; the next page says its refusal, or ``done``."""
    try:
        service()
    except ValidationError as error:
        messages.error(request, _error_text(error))
    else:
        messages.success(request, done)


def _back_to_direct(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Back to the director's page, or to the part of it the form names (``next``)."""
    back = request.POST.get("next", "")
    if back.startswith(reverse("tournaments:direct", args=[tournament_id])):
        return redirect(back)
    return redirect("tournaments:direct", tournament_id=tournament_id)


def _tiebreak_names(tournament: Tournament) -> list[tuple[str, str]]:
    labels = {tiebreak.value: str(label) for tiebreak, label in TIEBREAK_LABELS.items()}
    return [(name, labels.get(name, name)) for name in tournament.tiebreaks]


# --- the list ------------------------------------------------------------------------------------


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    lists = selectors.tournament_lists()
    context = {
        "lists": lists,
        "can_create": services.can_create(user=request.user if request.user.is_authenticated else None),
    }
    return render(request, "tournaments/list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    if not services.can_create(user=user):
        return HttpResponseForbidden(_("Only a tournament director may create a tournament."))
    form = TournamentCreateForm(request.POST or None, director=user, preset=request.GET.get("preset", ""))
    if request.method == "POST" and form.is_valid():
        try:
            tournament, _final = presets.tournament_create_staged(director=user, **form.final_arguments(), **form.service_arguments())
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The tournament is open for registration."))
            return redirect("tournaments:detail", tournament_id=tournament.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "tournaments/create.html", {"form": form}, status=status)


# --- a tournament --------------------------------------------------------------------------------


def _live_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    user = request.user if request.user.is_authenticated else None
    current = selectors.current_round(tournament=tournament)
    pairings = selectors.round_pairings(tournament=tournament, number=current.number, limit=LIVE_BOARDS) if current else []
    boards = selectors.round_size(tournament=tournament, number=current.number) if current else 0
    mine = selectors.my_pairing(tournament=tournament, user=user)
    entrant = selectors.my_entrant(tournament=tournament, user=user)
    return {
        "tournament": tournament,
        "standings": selectors.standings(tournament=tournament),
        "tiebreak_names": _tiebreak_names(tournament),
        "current_round": current,
        "pairings": pairings,
        "more_boards": max(0, boards - len(pairings)),
        "upcoming_round": selectors.upcoming_round(tournament=tournament),
        "mine": mine,
        "entrant": entrant,
        "can_withdraw": (
            entrant is not None and user is not None and entrant.user_id == user.pk
            and entrant.status in (EntrantStatus.ACTIVE, EntrantStatus.PENDING)
            and tournament.status in (TournamentStatus.REGISTRATION, TournamentStatus.RUNNING)
        ),  # fmt: skip
        # A partner the team's captain named: he is asked to accept or decline his place.
        "asked": selectors.asked_to_join(entrant=entrant, user=user),
        "can_direct": services.can_direct(user=user, tournament=tournament),
        "registration_open": selectors.registration_open(tournament),
        "team_form": TeamEntryForm(team_size=tournament.team_size) if tournament.seating == Seating.TEAMS else None,
        "teams": tournament.seating == Seating.TEAMS,
    }


@require_GET
def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    from tournaments.views_entrants import remember_code  # a private event's link

    remember_code(request, tournament)
    context = _live_context(request, tournament)
    context["rounds"] = selectors.rounds(tournament=tournament)
    return render(request, "tournaments/detail.html", context)


@require_GET
def tournament_live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The live part of the tournament page alone, redrawn by htmx whenever the tournament's socket says
    it moved (and every half minute in case the socket is down)."""
    tournament = _tournament(tournament_id)
    return render(request, "tournaments/_live.html", _live_context(request, tournament))


@login_required
@require_POST
def tournament_register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    partners: list[User] = []
    team_name = ""
    if tournament.seating == Seating.TEAMS:
        form = TeamEntryForm(request.POST, team_size=tournament.team_size)
        if not form.is_valid():
            for errors in form.errors.values():
                messages.error(request, " ".join(str(error) for error in errors))
            return redirect("tournaments:detail", tournament_id=tournament.pk)
        partners, team_name = form.cleaned_data["partners"], form.cleaned_data["team_name"]
    code = request.POST.get("code", "")
    _told(
        request,
        lambda: services.tournament_register(
            tournament=tournament, user=_user(request), partners=partners, team_name=team_name, code=code
        ),
        _("You are entered. The pairings are published when each round starts."),
    )
    return redirect("tournaments:detail", tournament_id=tournament.pk)


@login_required
@require_POST
def team_answer(request: HttpRequest, tournament_id: int, answer: str) -> HttpResponse:
    """A partner named by a team's captain accepts or declines his place in the team."""
    tournament = _tournament(tournament_id)
    if answer not in ("accept", "decline"):
        raise Http404
    if answer == "accept":
        _told(request, lambda: services.team_accept(tournament=tournament, user=_user(request)), _("You are in the team."))
    else:
        _told(
            request, lambda: services.team_decline(tournament=tournament, user=_user(request)),
            _("You declined; the team is not entered."),
        )  # fmt: skip
    return redirect("tournaments:detail", tournament_id=tournament.pk)


@login_required
@require_POST
def tournament_withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    entrant = Entrant.objects.filter(tournament=tournament, user=_user(request)).first()
    if entrant is None:
        messages.error(request, _("You are not entered in this tournament."))
    else:
        _told(request, lambda: services.entrant_withdraw(entrant=entrant, by=_user(request)), _("You have withdrawn."))
    return redirect("tournaments:detail", tournament_id=tournament.pk)


@login_required
@require_POST
def pairing_check_in(request: HttpRequest, tournament_id: int, pairing_id: int) -> HttpResponse:
    """He takes his seat; once his opponents are there too the game is dealt and he goes to it."""
    pairing = get_object_or_404(Pairing, pk=pairing_id, tournament_id=tournament_id)
    try:
        match_game = services.pairing_check_in(pairing=pairing, user=_user(request))
    except ValidationError as error:
        messages.error(request, _error_text(error))
        return redirect("tournaments:detail", tournament_id=tournament_id)
    if match_game is not None:
        return redirect("games:game", game_id=match_game.game_id)
    messages.success(request, _("You are seated. The game is dealt as soon as your opponents are seated too."))
    return redirect("tournaments:detail", tournament_id=tournament_id)


@require_GET
def round_page(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    round_ = next((one for one in selectors.rounds(tournament=tournament) if one.number == number), None)
    if round_ is None:
        raise Http404
    # What decided each board is for the director (a fold per board), not for the players.
    explain = services.can_direct(user=request.user if request.user.is_authenticated else None, tournament=tournament)
    context = {
        "tournament": tournament,
        "round": round_,
        "rounds": selectors.rounds(tournament=tournament),
        "pairings": selectors.round_pairings(tournament=tournament, number=number, explained=explain),
        "explain": explain,
        "deals": duplicate_selectors.round_deals(tournament=tournament, round_=round_) if tournament.duplicate else [],
    }
    return render(request, "tournaments/round.html", context)


@require_GET
def crosstable_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    rows = selectors.crosstable(tournament=tournament)
    ranks = {row.line.entrant.key: row.line.rank for row in rows}
    context = {
        "tournament": tournament,
        "rows": rows,
        "ranks": ranks,
        "round_numbers": range(1, max((len(row.cells) for row in rows), default=0) + 1),
    }
    return render(request, "tournaments/crosstable.html", context)


@require_GET
def entrant_page(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    entrant = get_object_or_404(Entrant.objects.select_related("user"), tournament=tournament, number=number)
    context = {
        "tournament": tournament,
        "entrant": entrant,
        "members": [member.user for member in entrant.members.select_related("user").order_by("position")],
        "pairings": selectors.entrant_pairings(entrant=entrant),
        "standing": getattr(entrant, "standing", None),
    }
    return render(request, "tournaments/entrant.html", context)


@require_GET
def audit_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    return render(request, "tournaments/log.html", {"tournament": tournament,
                                                   "entries": selectors.audit_log(tournament=tournament)})


@require_GET
def standings_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    response = HttpResponse(selectors.standings_csv(tournament=tournament), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}-standings.csv"'
    return response


@require_GET
def export_json(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The whole tournament (DESIGN.md's simulation output): anyone can check the pairings and recompute
    the standings."""
    tournament = _tournament(tournament_id)
    text = json.dumps(selectors.tournament_export(tournament=tournament), ensure_ascii=False, indent=1)
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}.json"'
    return response


def export_trf(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The closed rounds as FIDE's Tournament Report File, for any FIDE pairing checker (heads-up only)."""
    tournament = _tournament(tournament_id)
    try:
        text = services.tournament_trf(tournament=tournament)
    except TrfError:
        raise Http404(_("A TRF file holds heads-up pairings only; this tournament seats tables.")) from None
    response = HttpResponse(text.encode("utf-8"), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}.trf"'
    return response


@login_required
@require_POST
def dispute_file(request: HttpRequest, tournament_id: int, pairing_id: int) -> HttpResponse:
    pairing = get_object_or_404(Pairing.objects.select_related("round"), pk=pairing_id, tournament_id=tournament_id)
    form = DisputeForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Say what happened."))
    else:
        text = form.cleaned_data["text"]
        _told(
            request, lambda: services.dispute_file(pairing=pairing, user=_user(request), text=text),
            _("The director has your dispute."),
        )  # fmt: skip
    return redirect("tournaments:detail", tournament_id=tournament_id)


# --- directing -----------------------------------------------------------------------------------


@login_required
@require_GET
def direct_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    if not services.can_direct(user=_user(request), tournament=tournament):
        return HttpResponseForbidden(_("Only the tournament's director may do that."))
    rounds = selectors.rounds(tournament=tournament)
    try:
        shown = int(request.GET.get("round", tournament.current_round))
    except ValueError:
        shown = tournament.current_round
    context = {
        "tournament": tournament,
        "rounds": rounds,
        "shown_round": shown,
        "pairings": selectors.round_pairings(tournament=tournament, number=shown) if shown else [],
        "standings": selectors.standings(tournament=tournament),
        "disputes": selectors.open_disputes(tournament=tournament),
        "upcoming_round": selectors.upcoming_round(tournament=tournament),
        "running": tournament.status == TournamentStatus.RUNNING,
        "late_form": LateEntryForm(),
        "resolve_form": DisputeResolveForm(),
    }
    return render(request, "tournaments/direct.html", context)


def _reason(request: HttpRequest) -> str:
    return request.POST.get("reason", "")


def _entrant(request: HttpRequest, tournament: Tournament) -> Entrant:
    return get_object_or_404(Entrant, tournament=tournament, pk=request.POST.get("entrant") or 0)


def _pairing(request: HttpRequest, tournament: Tournament) -> Pairing:
    return get_object_or_404(Pairing, tournament=tournament, pk=request.POST.get("pairing") or 0)


def _seen_version(request: HttpRequest) -> int:
    """The version of the pairing the director's form showed (tournaments.models.Pairing.version)."""
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        raise ValidationError(_("The form is incomplete: load the page again.")) from None


def _act_late_entry(request: HttpRequest, tournament: Tournament, by: User) -> str:
    form = LateEntryForm(request.POST)
    if not form.is_valid():
        raise ValidationError([f"{form.fields[name].label}: {error}" for name, errors in form.errors.items() for error in errors])
    services.tournament_register(
        tournament=tournament, user=form.cleaned_data["username"], by=by, reason=form.cleaned_data["reason"]
    )
    return _("Entered.")


def _act_set_result(request: HttpRequest, tournament: Tournament, by: User) -> str:
    try:
        points = parse_numbers(request.POST.get("points", ""))
    except ValueError:
        raise ValidationError(_("Write the points as numbers, one an entrant.")) from None
    services.pairing_set_result(pairing=_pairing(request, tournament), points=points, by=by, reason=_reason(request),
                                seen_version=_seen_version(request))
    return _("The result is set; the standings follow.")


def _act_forfeit(request: HttpRequest, tournament: Tournament, by: User) -> str:
    pairing = _pairing(request, tournament)
    chosen = Entrant.objects.filter(tournament=tournament, pk__in=request.POST.getlist("forfeiting"))
    services.pairing_forfeit(pairing=pairing, forfeiting=list(chosen), by=by, reason=_reason(request),
                             seen_version=_seen_version(request))
    return _("The forfeit is scored; the standings follow.")


def _seat_places(request: HttpRequest) -> list[list[int]] | None:
    """The places chosen per seat of a table game (fields ``seat-place-<seat>``, 1 the best), as the seats
    best first with a shared place's seats together; None when the form has no such field (a heads-up game's
    buttons send ``places`` written out). ValueError on a field that is not a number."""
    chosen = {
        int(name.removeprefix("seat-place-")): int(request.POST.get(name, ""))
        for name in request.POST
        if name.startswith("seat-place-")
    }
    if not chosen:
        return None
    return [sorted(seat for seat, place in chosen.items() if place == at) for at in sorted(set(chosen.values()))]


def _act_game_result(request: HttpRequest, tournament: Tournament, by: User) -> str:
    match_game = get_object_or_404(MatchGame, pairing__tournament=tournament, pk=request.POST.get("game") or 0)
    try:
        picked = _seat_places(request)
        places = picked if picked is not None else parse_places(request.POST.get("places", ""))
    except ValueError:
        raise ValidationError(_("Give every player of the game a place, from 1 (the best) to the last.")) from None
    services.match_game_set_result(match_game=match_game, places=places, by=by, reason=_reason(request),
                                   seen_version=_seen_version(request))
    return _("The game's result is set; the match, the standings and the ratings follow.")


def _act_dispute(request: HttpRequest, tournament: Tournament, by: User) -> str:
    dispute = get_object_or_404(Dispute, tournament=tournament, pk=request.POST.get("dispute") or 0)
    form = DisputeResolveForm(request.POST)
    if not form.is_valid():
        raise ValidationError(_("Choose a decision and say why."))
    services.dispute_resolve(dispute=dispute, by=by, upheld=form.cleaned_data["upheld"],
                             resolution=form.cleaned_data["resolution"])
    return _("The dispute is decided.")


Act = Callable[[HttpRequest, Tournament, User], object]


def _saying(message: Promise, call: Act) -> Act:
    """An act that calls a service and says ``message`` (in the reader's language) once it is done."""

    def act(request: HttpRequest, tournament: Tournament, by: User) -> str:
        call(request, tournament, by)
        return str(message)

    return act


ACTS: dict[str, Act] = {
    "start": _saying(gettext_lazy("Started."), lambda request, tournament, by: services.tournament_start(
        tournament=tournament, by=by)),
    "pause": _saying(gettext_lazy("Paused."), lambda request, tournament, by: services.tournament_pause(
        tournament=tournament, by=by, reason=_reason(request))),
    "resume": _saying(gettext_lazy("Resumed."), lambda request, tournament, by: services.tournament_resume(
        tournament=tournament, by=by, reason=_reason(request))),
    "confirm_round": _saying(gettext_lazy("The round is paired."), lambda request, tournament, by: services.round_confirm(
        tournament=tournament, by=by, reason=_reason(request))),
    "repair_round": _saying(gettext_lazy("The round is paired again."), lambda request, tournament, by: services.round_repair(
        tournament=tournament, by=by, reason=_reason(request))),
    "finish": _saying(gettext_lazy("Finished."), lambda request, tournament, by: services.tournament_finish_early(
        tournament=tournament, by=by, reason=_reason(request))),
    "withdraw": _saying(gettext_lazy("Withdrawn."), lambda request, tournament, by: services.entrant_withdraw(
        entrant=_entrant(request, tournament), by=by, reason=_reason(request))),
    "disqualify": _saying(gettext_lazy("Disqualified."), lambda request, tournament, by: services.entrant_disqualify(
        entrant=_entrant(request, tournament), by=by, reason=_reason(request))),
    "reinstate": _saying(gettext_lazy("Reinstated."), lambda request, tournament, by: services.entrant_reinstate(
        entrant=_entrant(request, tournament), by=by, reason=_reason(request))),
    "late_entry": _act_late_entry,
    "set_result": _act_set_result,
    "forfeit": _act_forfeit,
    "game_result": _act_game_result,
    "dispute": _act_dispute,
}  # fmt: skip


@login_required
@require_POST
def direct_act(request: HttpRequest, tournament_id: int, act: str) -> HttpResponse:
    """One act of the director (ACTS); each service checks who may, and logs who, when, what and why."""
    tournament = _tournament(tournament_id)
    user = _user(request)
    if act not in ACTS:
        raise Http404
    if not services.can_direct(user=user, tournament=tournament):
        return HttpResponseForbidden(_("Only the tournament's director may do that."))
    try:
        done = str(ACTS[act](request, tournament, user))
    except ValidationError as error:
        messages.error(request, _error_text(error))
    except ValueError as error:  # ratings: places that do not fit the table
        messages.error(request, str(error))
    else:
        messages.success(request, done)
    return _back_to_direct(request, tournament.pk)
