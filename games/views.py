"""The play pages: the lobby, a table's seats, the game table and a finished game's record.

Views validate and call games.services; what a page shows comes from games.selectors. A private table
is seen only by its owner, its players and whoever opened its link (remembered in the session).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.middleware.csrf import get_token
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import BotLevel, User
from games import aftermath, selectors, services
from games.forms import BotForm, JoinForm, TableCreateForm, table_form_initial
from games.models import Game, Table, TableStatus
from games.table_strings import client_strings, end_strings

SESSION_TABLE_ACCESS = "games_table_access"


# --- helpers ------------------------------------------------------------------------------------


def rules_in_words(rules: dict[str, Any], seats: int) -> list[str]:
    """A table's rule set as short phrases in the reader's language, most important first."""
    if rules.get("hidden_cards") and rules.get("deck") == 54:
        words = [_("Aktobe")]
    else:
        words = [_("Perevodnoy") if rules.get("transfer") else _("Podkidnoy")]
    deck = int(rules.get("deck", 36))
    words.append(ngettext("%(count)d card", "%(count)d cards", deck) % {"count": deck})
    words.append(ngettext("%(count)d player", "%(count)d players", seats) % {"count": seats})
    if rules.get("transfer_by_showing_trump"):
        words.append(_("transfer by showing a trump"))
    if rules.get("throw_in") == "neighbours":
        words.append(_("only the neighbours throw in"))
    if rules.get("first_bout_limit") == 5:
        words.append(_("5 cards in the first bout"))
    if rules.get("teams") == "2v2":
        words.append(_("two against two"))
    elif rules.get("teams") == "3v3":
        words.append(_("three against three"))
    if rules.get("cheating"):
        words.append(_("cheating allowed"))
    if rules.get("deck") == 54 and rules.get("joker_beats") == "same_colour":
        words.append(_("a joker beats only its own colour"))
    if rules.get("no_attack_with_epaulettes"):
        words.append(_("epaulettes are taken, not led"))
    if rules.get("redeal_five_same_suit"):
        words.append(_("redeal on five of a suit"))
    return words


def _table_entry(table: dict[str, Any]) -> dict[str, Any]:
    seats = table["seats"]
    return {
        **table,
        "words": rules_in_words(table["rules"], len(seats)),
        "taken": sum(1 for seat in seats if seat["name"]),
        "full": all(seat["name"] for seat in seats),
    }


def _access_list(request: HttpRequest) -> list[int]:
    return list(request.session.get(SESSION_TABLE_ACCESS, []))


def _can_see(request: HttpRequest, table: Table) -> bool:
    if not table.private:
        return True
    user = request.user
    if user.is_authenticated and (
        table.owner_id == user.pk or selectors.table_seat_of(table=table, user=user) is not None
    ):
        return True
    return table.pk in _access_list(request)


def _visible_table(request: HttpRequest, table_id: int) -> Table:
    table = get_object_or_404(Table, pk=table_id)
    if not _can_see(request, table):
        # A private table is not even admitted to exist without its link.
        raise Http404
    return table


def _error_text(error: ValidationError) -> str:
    return " ".join(str(message) for message in error.messages)


def _user(request: HttpRequest) -> User:
    return cast(User, request.user)  # login_required: never anonymous here


# --- the lobby ----------------------------------------------------------------------------------


def _lobby_context() -> dict[str, Any]:
    tables = [_table_entry(table) for table in selectors.lobby_tables()]
    return {
        "open_tables": [table for table in tables if table["status"] == TableStatus.OPEN],
        "playing_tables": [table for table in tables if table["status"] == TableStatus.PLAYING],
    }


def _form_like(request: HttpRequest) -> TableCreateForm:
    """The create form, filled with the options of the table of game `?like=<id>` (a finished game's "New
    game") when the reader may see that game; else empty."""
    like = request.GET.get("like", "")
    wellformed = like.isascii() and like.isdecimal() and len(like) <= 12
    game = Game.objects.select_related("table").filter(pk=int(like)).first() if wellformed else None
    if game is None or not _can_see(request, game.table):
        return TableCreateForm()
    return TableCreateForm(initial=table_form_initial(game.table))


@require_GET
def play(request: HttpRequest) -> HttpResponse:
    context = {**_lobby_context(), "form": _form_like(request), "bot_levels": BotLevel.choices}
    return render(request, "games/lobby.html", context)


@require_GET
def lobby_tables(request: HttpRequest) -> HttpResponse:
    """The lobby's list of tables alone, redrawn by htmx whenever the lobby socket reports a change."""
    return render(request, "games/_table_list.html", _lobby_context())


@login_required
@require_POST
def table_create(request: HttpRequest) -> HttpResponse:
    form = TableCreateForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        user = _user(request)
        try:
            table = services.table_create(
                owner=user,
                rules=data["rules"],
                seats=data["players"],
                stake=data["stake"],
                private=data["private"],
                password=data["password"],
                rated=data["rated"],
                turn_seconds=data["turn_seconds"],
                name=data["name"],
                bot_pace=data["bot_pace"],
                clock_base=data["clock_base_seconds"],
                clock_increment=data["clock_increment_seconds"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            try:
                services.table_join(table=table, user=user)
            except ValidationError as error:
                messages.error(request, _error_text(error))
            return redirect("games:table", table_id=table.pk)
    context = {**_lobby_context(), "form": form, "bot_levels": BotLevel.choices}
    return render(request, "games/lobby.html", context, status=400)


# --- a table ------------------------------------------------------------------------------------


def _table_context(request: HttpRequest, table: Table) -> dict[str, Any]:
    detail = selectors.table_detail(table_id=table.pk)
    user = request.user
    my_seat = selectors.table_seat_of(table=table, user=user) if user.is_authenticated else None
    is_owner = user.is_authenticated and table.owner_id == user.pk
    seats = detail["seats"]
    return {
        "table": table,
        "detail": detail,
        "words": rules_in_words(detail["rules"], len(seats)),
        "seats": seats,
        "empty_seats": sum(1 for seat in seats if not seat["name"]),
        "my_seat": my_seat,
        "is_owner": is_owner,
        "is_open": table.status == TableStatus.OPEN,
        "game_id": detail["game"],
        "join_form": JoinForm(),
        "bot_form": BotForm(),
        "private_link": (
            request.build_absolute_uri(reverse("games:table-link", args=[table.link_token]))
            if table.private and (is_owner or my_seat is not None or table.pk in _access_list(request))
            else None
        ),
    }


@require_GET
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _visible_table(request, table_id)
    context = _table_context(request, table)
    if context["game_id"] and table.status == TableStatus.PLAYING:
        # Players go back to their game, everyone else watches it.
        return redirect("games:game", game_id=context["game_id"])
    return render(request, "games/table.html", context)


@require_GET
def table_seats(request: HttpRequest, table_id: int) -> HttpResponse:
    """The seats alone, polled by htmx while the table fills; a seated player is sent to the game when it starts."""
    table = _visible_table(request, table_id)
    context = _table_context(request, table)
    response = render(request, "games/_seats.html", context)
    if context["game_id"] and not context["is_open"] and context["my_seat"] is not None:
        response["HX-Redirect"] = reverse("games:game", args=[context["game_id"]])
    return response


@require_GET
def table_link(request: HttpRequest, token: str) -> HttpResponse:
    """A private table's link: whoever opens it may see the table and watch its games."""
    table = get_object_or_404(Table, link_token=token)
    access = _access_list(request)
    if table.pk not in access:
        request.session[SESSION_TABLE_ACCESS] = [*access, table.pk]
    return redirect("games:table", table_id=table.pk)


def _back_to_table(request: HttpRequest, table: Table, error: str) -> HttpResponse:
    messages.error(request, error)
    return redirect("games:table", table_id=table.pk)


def _seat(request: HttpRequest, table: Table, seating: Callable[[], object]) -> HttpResponse:
    """Run a service that fills a seat: a refusal goes back to the table's page with its message; after a
    seat is taken the reader goes to the game if it has started (the table was full), else to the table."""
    try:
        seating()
    except ValidationError as error:
        return _back_to_table(request, table, _error_text(error))
    table.refresh_from_db()
    game = selectors.latest_game(table=table)
    if game is not None and not game.is_finished:
        return redirect("games:game", game_id=game.pk)
    return redirect("games:table", table_id=table.pk)


@login_required
@require_POST
def table_join(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _visible_table(request, table_id)
    form = JoinForm(request.POST)
    if not form.is_valid():
        return _back_to_table(request, table, _("Choose a seat."))
    seat, password = form.cleaned_data["seat"], form.cleaned_data["password"]
    return _seat(
        request, table, lambda: services.table_join(table=table, user=_user(request), seat=seat, password=password)
    )


@login_required
@require_POST
def table_leave(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _visible_table(request, table_id)
    try:
        services.table_leave(table=table, user=_user(request))
    except ValidationError as error:
        messages.error(request, _error_text(error))
    else:
        messages.success(request, _("You left your seat."))
    return redirect("games:table", table_id=table.pk)


def owner_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A table owner's view: it is given the table (404 if the reader may not see it) in place of its id;
    anyone else is refused."""

    @wraps(view)
    def checked(request: HttpRequest, table_id: int, **kwargs: Any) -> HttpResponse:
        table = _visible_table(request, table_id)
        if table.owner_id != request.user.pk:
            return HttpResponseForbidden(_("Only the table's owner may do that."))
        return view(request, table, **kwargs)

    return checked


@login_required
@require_POST
@owner_only
def table_bots(request: HttpRequest, table: Table) -> HttpResponse:
    """Seat a bot of the chosen level: in one seat if it is named, else in every empty seat."""
    form = BotForm(request.POST)
    if not form.is_valid():
        return _back_to_table(request, table, _("Choose a bot level."))
    level, seat = form.cleaned_data["level"], form.cleaned_data["seat"]
    if seat is None:
        return _seat(request, table, lambda: services.table_fill_bots(table=table, level=level))
    return _seat(request, table, lambda: services.table_add_bot(table=table, level=level, seat=seat))


@login_required
@require_POST
@owner_only
def table_remove_bot(request: HttpRequest, table: Table) -> HttpResponse:
    try:
        services.table_remove_seat_bot(table=table, seat=int(request.POST.get("seat", "")))
    except (ValueError, ValidationError) as error:
        messages.error(request, _error_text(error) if isinstance(error, ValidationError) else _("Choose a seat."))
    return redirect("games:table", table_id=table.pk)


@login_required
@require_POST
def table_start(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _visible_table(request, table_id)
    try:
        game = services.game_start(table=table, by=_user(request))
    except ValidationError as error:
        return _back_to_table(request, table, _error_text(error))
    return redirect("games:game", game_id=game.pk)


# --- a game -------------------------------------------------------------------------------------


def _visible_game(request: HttpRequest, game_id: int) -> Game:
    game = get_object_or_404(Game.objects.select_related("table"), pk=game_id)
    if not _can_see(request, game.table):
        raise Http404
    return game


def sound_settings(request: HttpRequest) -> dict[str, Any]:
    """What the page's sound and attention modules (static/games/sound.js, attention.js) read at load: the
    account's mute switch (a logged-out reader's is kept in his browser), where to post it, and their texts."""
    user = request.user if request.user.is_authenticated else None
    account = user is not None and not user.is_bot
    return {
        "account": account,
        "muted": bool(user is not None and account and user.sound_muted),
        "url": reverse("accounts:sound-muted"),
        "csrf": get_token(request),
        "strings": {
            "muted_title": _("The sounds are off: press to turn them on."),
            "unmuted_title": _("Press to turn the sounds off."),
            "not_saved": _("The sound setting was not saved; try again."),
            "your_move_title": _("Your move · Durak"),
            "notification_title": _("Your move"),
            "notification_body": _("Game %(n)s: it is your move."),
            "notify_on": _("You are notified when it is your move while this tab is hidden; press to stop."),
            "notify_off": _("Get a notification when it is your move while this tab is hidden."),
            "notify_blocked": _("Notifications are blocked for this site in the browser's settings."),
        },
    }


@require_GET
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _visible_game(request, game_id)
    user = request.user if request.user.is_authenticated else None
    language = get_language()
    initial = selectors.game_view_for(game=game, user=user, language=language)
    # The page keeps the whole game's log: the views carry its last lines, the page starts from all of them.
    shown = selectors.game_log_shown(game=game, user=user)
    initial = {**initial, "log": selectors.game_log_lines(game=game, language=language) if shown else []}
    query = f"?lang={language}"
    if game.table.private:
        query += f"&token={game.table.link_token}"
    detail = selectors.table_detail(table_id=game.table_id)
    tournament = aftermath.tournament_of(game)
    context = {
        "game": game,
        "tournament": tournament,
        "replay_url": reverse("games:game-replay", args=[game.pk]),
        "new_game_url": f"{reverse('games:play')}?like={game.pk}#create-heading",
        "table": game.table,
        "words": rules_in_words(game.rules, game.players),
        "initial": initial,
        "strings": {key: _force_text(value) for key, value in {**client_strings(), "end": end_strings()}.items()},
        "socket_query": query,
        "stake": detail["stake"],
        "rated": detail["rated"],
        "turn_seconds": detail["turn_seconds"],
        "clock": detail["clock"]["text"] if detail["clock"] else None,
        "sound": sound_settings(request),
    }
    return render(request, "games/game.html", context)


def _force_text(value: Any) -> Any:
    """Lazy translations and nested dicts as plain JSON values."""
    if isinstance(value, dict):
        return {key: _force_text(inner) for key, inner in value.items()}
    return str(value)


@require_http_methods(["GET", "HEAD"])
def game_record(request: HttpRequest, game_id: int) -> HttpResponse:
    """A finished game's record (deal, actions, commitment, revealed deck) as a JSON file to download."""
    game = _visible_game(request, game_id)
    try:
        record = selectors.game_record_json(game=game)
    except ValidationError:
        if game.deck_held:
            return HttpResponseForbidden(selectors.deck_held_text())
        return HttpResponseForbidden(_("The record of a game is available once the game is over."))
    response = JsonResponse(record, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="durak-game-{game.pk}.json"'
    return response
