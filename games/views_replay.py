"""A finished game's replay page: the table drawn as in play with every hand face up, stepped move by move,
the shuffle's check in words and, when the game has one, its analysis (games.bots.review's JSON).

Seen by whoever may see the finished game's record (games.views.game_record's rules); a game still being
played gets a page that says its replay opens once it is over, and no card.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games import aftermath, selectors
from games.decisions import decision_of
from games.logtext import log_lines
from games.models import Game, GameStatus, Result
from games.replays import replay_steps, shuffle_check, voided_deal_checks
from games.table_strings import card_strings
from games.views import _visible_game, rules_in_words


AnalysisSource = Callable[[Game], "dict[str, Any] | None"]
_analysis_sources: list[AnalysisSource] = []


def provide_analysis(source: AnalysisSource) -> AnalysisSource:
    """Register where a game's analysis comes from: the review app does, in its ``ready`` (it depends on
    games, so games asks it through this hook rather than importing it)."""
    if source not in _analysis_sources:
        _analysis_sources.append(source)
    return source


def analysis_json_for(game: Game) -> dict[str, Any] | None:
    """The game's analysis as ``games.bots.review.JudgedGame.to_json`` writes it, or None when the game has
    none (or no app provides analyses)."""
    for source in _analysis_sources:
        found = source(game)
        if found is not None:
            return found
    return None


def replay_strings() -> dict[str, Any]:
    """Every text the replay's script (static/games/replay.js) shows, in the page's language."""
    return {
        "deal": _("The deal"),
        "move_of": _("Move %(n)s of %(total)s"),
        "seat_n": _("Seat %(n)s"),
        "cards_n": _("cards: %(n)s"),
        "table_empty": _("The table is empty."),
        "no_trump": _("no trump"),
        "stock_empty": _("The stock is empty."),
        "trump_bottom": _("the trump, at the bottom"),
        "hidden_face_down": _("a hidden card face down"),
        "under_trump": _("the card face down under the trump"),
        "bout": _("%(attacker)s attacks %(defender)s"),
        "durak_is": _("%(name)s is the durak."),
        "draw": _("A draw: nobody is the durak."),
        "roles": {
            "attacking": _("attacking"), "defending": _("defending"), "taking": _("taking"),
            "throwing_in": _("throwing in"), "out": _("out"), "durak": _("durak"),
        },  # fmt: skip
        **card_strings(),
        # The analysis.
        "move_axis": _("move"),
        "marks": {
            "inaccuracy": pgettext("analysis mark", "Inaccuracy"), "mistake": pgettext("analysis mark", "Mistake"),
            "blunder": pgettext("analysis mark", "Blunder"),
        },  # fmt: skip
        "decision_played": _("Played: %(move)s"),
        "decision_best": _("Better: %(move)s"),
        "decision_best_same": _("This was the best move."),
        "decision_chances": _("Chance of not being the durak: %(before)s%% before, %(after)s%% after this move, "
                              "%(best)s%% after the better one."),
        "decision_solved": _("(proven by the endgame solver)"),
        "decision_forced": _("The only move there was."),
        "actions": {
            "attack": _("lead %(cards)s"), "throw": _("throw in %(cards)s"), "transfer": _("transfer with %(cards)s"),
            "cover": _("cover %(attack)s with %(card)s"), "show_trump": _("show the trump %(card)s and transfer"),
            "take": _("take"), "pass": _("pass"), "accuse": _("accuse %(card)s"), "give": _("give away %(card)s"),
            "duel": _("show the lower trump %(card)s"), "announce": _("say “one card!”"),
            "challenge": _("ask how many cards"),
        },  # fmt: skip
    }


def accuracy_rows(analysis: dict[str, Any] | None, names: list[str]) -> list[dict[str, Any]]:
    """Each player's accuracy and count of marks, for the analysis's summary."""
    if not analysis:
        return []
    accuracy = list(analysis.get("accuracy") or [])
    rows = []
    for seat, name in enumerate(names):
        marks = [item.get("mark") for item in analysis.get("decisions", []) if item.get("seat") == seat]
        first = next(
            (item["ply"] for item in analysis.get("decisions", []) if item.get("seat") == seat and item.get("mark")), None
        )
        rows.append({
            "name": name, "accuracy": accuracy[seat] if seat < len(accuracy) else None, "first_marked": first,
            "inaccuracies": marks.count("inaccuracy"), "mistakes": marks.count("mistake"), "blunders": marks.count("blunder"),
        })  # fmt: skip
    return rows


def _result_line(game: Game, result: Result | None, names: list[str]) -> str:
    if result is None:
        return ""
    decision = decision_of(game)
    if decision is not None and decision.get("kind") == "replay":
        return _("The director ordered this game played again with a fresh deal.")
    words = []
    if result.surrendered is not None and 0 <= result.surrendered < len(names):
        if game.flagged is not None:
            words.append(_("%(name)s ran out of time.") % {"name": names[result.surrendered]})
        else:
            words.append(_("%(name)s surrendered.") % {"name": names[result.surrendered]})
    if decision is not None:
        words.append(_("The director decided the game."))
    if result.outcome == "draw":
        words.append(_("A draw: nobody is the durak."))
    elif result.losing_team:
        losers = ", ".join(names[seat] for seat in result.losing_team if 0 <= seat < len(names))
        words.append(_("The team of %(names)s lost.") % {"names": losers})
    elif result.durak is not None and 0 <= result.durak < len(names):
        words.append(_("%(name)s is the durak.") % {"name": names[result.durak]})
    return " ".join(words)


def _requested_move(request: HttpRequest, last: int) -> tuple[int, bool]:
    """The ?move=N asked for, within 0..last (the deal to the end), and whether it had to be brought within."""
    raw = request.GET.get("move", "")
    if not raw:
        return last, False
    if not (raw.isascii() and raw.isdecimal() and len(raw) <= 6):
        return last, True
    number = int(raw)
    return min(number, last), number > last


@require_http_methods(["GET", "HEAD"])
def game_replay(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _visible_game(request, game_id)
    tournament = aftermath.tournament_of(game)
    base = {
        "game": game, "table": game.table, "tournament": tournament,
        "words": rules_in_words(game.rules, game.players),
    }  # fmt: skip
    if game.status != GameStatus.FINISHED:
        # Nothing of the deal is read, let alone shown: the record holds every hand.
        return render(request, "games/replay.html", {**base, "pending": True}, status=403)
    if game.deck_held:
        # A duplicate round: another board still plays this deck.
        return render(request, "games/replay.html", {**base, "pending": True, "held": selectors.deck_held_text()},
                      status=403)  # fmt: skip
    language = get_language()
    seats = selectors.game_seats(game)
    with translation.override(language):
        names = [selectors.seat_name(seat) or _("Seat %(n)s") % {"n": seat.number + 1} for seat in seats]
    names = names[: game.players]
    record = selectors.game_record_json(game=game)
    replayed = replay_steps(record, names, language)
    result = selectors.game_result(game)
    last = replayed.steps[-1]
    if game.flagged is not None and (last["action"] or {}).get("type") == "surrender":
        # A clock's fall is recorded as a surrender (games.services.changes: GameChange.end) and told as a fall.
        flag = {"seq": last["n"] - 1, "seat": last["seat"], "action": {"type": "flag"}}
        replayed.steps[-1] = {**last, "line": log_lines([flag], names, language)[0]["text"]}
    move, clamped = _requested_move(request, len(replayed.steps) - 1)
    check = shuffle_check(commitment=game.commitment, salt=game.salt, deck=game.revealed_deck, record=record)
    analysis = analysis_json_for(game)
    user = request.user
    my_seat = next(
        (seat.number for seat in seats if user.is_authenticated and seat.user_id == user.pk and not seat.is_bot), None
    )
    players = [
        {"seat": seat.number, "name": names[seat.number], "bot": seat.is_bot}
        for seat in seats if seat.number < game.players
    ]  # fmt: skip
    context = {
        **base,
        "pending": False,
        "move": move,
        "clamped": clamped,
        "last_move": len(replayed.steps) - 1,
        "replay_data": {
            "steps": replayed.steps, "players": players, "start": move,
            "result_line": _result_line(game, result, names), "analysis": analysis, "my_seat": my_seat,
            "result": {"durak": result.durak} if result is not None else None,
            "url": reverse("games:game-replay", args=[game.pk]),
        },  # fmt: skip
        "strings": replay_strings(),
        "check": check,
        "voided": voided_deal_checks(game.rules, game.players, game.redeals, record) if game.redeals else [],
        "names": names,
        "analysis": analysis,
        "accuracy_rows": accuracy_rows(analysis, names),
        "record_url": reverse("games:game-record", args=[game.pk]),
    }
    return render(request, "games/replay.html", context)
