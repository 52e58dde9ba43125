"""The entrants' pages and acts: the director's people search, bots in numbers, the CSV import with its
preview, the registration code and the check-in settings; a player's check-in; an invitation's sign-up.

Views validate and call tournaments.services.entrants; a refusal is shown as a message and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.forms import SignUpForm
from accounts.models import User
from django.contrib.auth.decorators import login_required
from tournaments import services
from tournaments.models import Entrant, Tournament
from tournaments.services import entrants
from tournaments.views import _error_text, _tournament, _user

CSV_FIELD = "players"
CODE_SESSION_KEY = "tournament_codes"


def remember_code(request: HttpRequest, tournament: Tournament) -> None:
    """A private event's link carries ``?code=``: keep it for the registration form (also when the page's
    live part is redrawn)."""
    code = request.GET.get("code", "").strip()[:64]
    if code:
        codes = dict(request.session.get(CODE_SESSION_KEY, {}))
        codes[str(tournament.pk)] = code
        request.session[CODE_SESSION_KEY] = codes


def remembered_code(request: HttpRequest, tournament: Tournament) -> str:
    code = request.GET.get("code", "").strip()[:64]
    return code or str(request.session.get(CODE_SESSION_KEY, {}).get(str(tournament.pk), ""))


def _directing(request: HttpRequest, tournament: Tournament) -> bool:
    return services.can_direct(user=_user(request), tournament=tournament)


def _back(tournament: Tournament) -> HttpResponse:
    return redirect(reverse("tournaments:direct", args=[tournament.pk]) + "#entrants-panel")


@login_required
@require_GET
def people_search(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The type-ahead's suggestions (an htmx fragment: a listbox's options)."""
    tournament = _tournament(tournament_id)
    if not _directing(request, tournament):
        return HttpResponseForbidden(_("Only the tournament's director may do that."))
    query = request.GET.get("q", "")[:60]
    found = entrants.people_search(tournament=tournament, query=query, by=_user(request))
    return render(request, "tournaments/_people_options.html", {"tournament": tournament, "found": found, "query": query})


def _int(request: HttpRequest, name: str, message: str) -> int:
    try:
        return int(request.POST.get(name, ""))
    except ValueError:
        raise ValidationError(message) from None


def _reason(request: HttpRequest) -> str:
    return request.POST.get("reason", "")


def _act_add_person(request: HttpRequest, tournament: Tournament, by: User) -> str:
    user_id = _int(request, "person", _("Choose a person from the list."))
    entrant = entrants.person_enter(tournament=tournament, user_id=user_id, by=by, reason=_reason(request))
    return _("%(name)s is entered.") % {"name": entrant.user.public_name}


def _act_add_bots(request: HttpRequest, tournament: Tournament, by: User) -> str:
    count = _int(request, "count", _("Say how many bots."))
    added = entrants.bots_enter(tournament=tournament, level=request.POST.get("level", ""), count=count, by=by,
                                reason=_reason(request))
    return _("Entered: %(names)s.") % {"names": ", ".join(entrant.user.public_name for entrant in added)}


def _act_import(request: HttpRequest, tournament: Tournament, by: User) -> str:
    result = entrants.players_import(
        tournament=tournament, data=request.POST.get(CSV_FIELD, ""), by=by, reason=_reason(request),
        base_url=request.build_absolute_uri("/"),
    )  # fmt: skip
    return _("Entered %(matched)s, invited %(invited)s, left out %(refused)s.") % {
        "matched": result.count(entrants.ImportOutcome.MATCHED), "invited": result.count(entrants.ImportOutcome.INVITED),
        "refused": result.count(entrants.ImportOutcome.REFUSED),
    }  # fmt: skip


def _act_code(request: HttpRequest, tournament: Tournament, by: User) -> str:
    required = request.POST.get("required") == "1"
    entrants.registration_code_set(tournament=tournament, by=by, required=required, reason=_reason(request))
    return _("Registration is by invitation code: share the new link.") if required else _("Anyone may register.")


def _act_presence(request: HttpRequest, tournament: Tournament, by: User) -> str:
    minutes = _int(request, "minutes", _("Write the minutes as a number."))
    entrants.presence_set(tournament=tournament, by=by, minutes=minutes, reason=_reason(request))
    return _("Check-in is off.") if not minutes else _("Players check in %(minutes)s minutes before each round.") % {
        "minutes": minutes}


def _act_mark(request: HttpRequest, tournament: Tournament, by: User) -> str:
    entrant = Entrant.objects.filter(tournament=tournament, pk=request.POST.get("entrant") or 0).select_related(
        "user").first()
    if entrant is None:
        raise Http404
    present = request.POST.get("present") == "1"
    entrants.presence_mark(entrant=entrant, by=by, present=present, reason=_reason(request))
    name = entrant.user.public_name
    return (_("%(name)s is marked present.") if present else _("%(name)s is marked absent.")) % {"name": name}


ACTS: dict[str, Callable[[HttpRequest, Tournament, User], str]] = {
    "add_person": _act_add_person,
    "add_bots": _act_add_bots,
    "import": _act_import,
    "code": _act_code,
    "presence": _act_presence,
    "mark": _act_mark,
}


@login_required
@require_POST
def entrants_act(request: HttpRequest, tournament_id: int, act: str) -> HttpResponse:
    tournament = _tournament(tournament_id)
    if act not in ACTS:
        raise Http404
    if not _directing(request, tournament):
        return HttpResponseForbidden(_("Only the tournament's director may do that."))
    try:
        done = ACTS[act](request, tournament, _user(request))
    except ValidationError as error:
        messages.error(request, _error_text(error))
    else:
        messages.success(request, done)
    return _back(tournament)


@login_required
@require_POST
def import_preview(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """What the file would do, line by line, with the button that applies it."""
    tournament = _tournament(tournament_id)
    if not _directing(request, tournament):
        return HttpResponseForbidden(_("Only the tournament's director may do that."))
    upload = request.FILES.get("file")
    raw: bytes | str = upload.read(entrants.CSV_MOST_BYTES + 1) if upload is not None else request.POST.get(CSV_FIELD, "")
    try:
        text = entrants.players_csv_text(raw)
        plan = entrants.players_import_plan(tournament=tournament, data=text, by=_user(request))
    except ValidationError as error:
        messages.error(request, _error_text(error))
        return _back(tournament)
    counts = {outcome: sum(1 for line in plan if line.outcome == outcome) for outcome in
              (entrants.ImportOutcome.MATCHED, entrants.ImportOutcome.INVITED, entrants.ImportOutcome.REFUSED)}
    context = {"tournament": tournament, "plan": plan, "text": text, "reason": _reason(request), "counts": counts,
               "applicable": counts[entrants.ImportOutcome.REFUSED] < len(plan)}
    return render(request, "tournaments/import_preview.html", context)


@login_required
@require_POST
def presence_confirm(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The player's "I am here" for the next round."""
    tournament = _tournament(tournament_id)
    try:
        entrants.presence_confirm(tournament=tournament, user=_user(request))
    except ValidationError as error:
        messages.error(request, _error_text(error))
    else:
        messages.success(request, _("You are checked in. The round is paired with you."))
    back = request.POST.get("next", "")
    if back == reverse("tournaments:list"):
        return redirect(back)
    return redirect("tournaments:detail", tournament_id=tournament.pk)


@require_http_methods(["GET", "POST"])
def invitation_page(request: HttpRequest, invitation: str) -> HttpResponse:
    """The invited player's link: a sign-up form with his name, which enters him once his account exists;
    someone logged in already enters with his own account."""
    found = entrants.invitation_find(token=invitation[:64])
    if found is None:
        raise Http404
    used = found.accepted_by_id is not None
    user = request.user if request.user.is_authenticated else None
    form = SignUpForm(request.POST or None, initial={"preferred_language": get_language(), "email": found.email})
    if request.method == "POST" and not used:
        try:
            if user is not None:
                entrants.invitation_accept(token=found.token, user=_user(request))
            elif form.is_valid():
                user, _entrant = entrants.invitation_sign_up(
                    token=found.token, username=form.cleaned_data["username"], email=form.cleaned_data["email"],
                    password=form.cleaned_data["password1"], display_name=request.POST.get("display_name", found.name),
                    preferred_language=form.cleaned_data["preferred_language"],
                )  # fmt: skip
                login(request, user, backend="accounts.backends.HumanOnlyBackend")
            else:
                return render(request, "tournaments/invitation.html", _invitation_context(found, form, used))
        except ValidationError as error:
            messages.error(request, _error_text(error))
            return redirect("tournaments:invitation", invitation=found.token)
        messages.success(request, _("You are entered in %(tournament)s.") % {"tournament": found.tournament.name})
        return redirect("tournaments:detail", tournament_id=found.tournament_id)
    return render(request, "tournaments/invitation.html", _invitation_context(found, form, used))


def _invitation_context(found: object, form: SignUpForm, used: bool) -> dict[str, object]:
    return {"invitation": found, "form": form, "used": used, "languages": settings.LANGUAGES}
