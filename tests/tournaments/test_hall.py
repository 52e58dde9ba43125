"""The hall screen, the printed pages and the standings on every screen, with Django's test client: the hall
shows the round's boards with their results and the standings, its live part follows a result, every printable
page carries the print stylesheet, a round's score sheets have one sheet a board, and the standings carry
their tie-breaks folded into the entrant's cell for a phone."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import bots, director, enter, finish_game, play_games, tournament
from tournaments import services
from tournaments.models import MatchGame, Pairing, PairingEntrant, Tournament
from tournaments.selectors import shown
from tournaments.views_hall import HALL_TURN_SECONDS, HALL_TURN_SECONDS_RANGE

pytestmark = pytest.mark.django_db

PRINT_CSS = "tournaments/print.css"


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _running(players: int = 4, **options: object) -> Tournament:
    chief = director()
    event = tournament(chief, rounds=2, name="Hall Cup", **options)
    enter(event, bots(players))
    services.tournament_start(tournament=event, by=chief)
    event.refresh_from_db()
    return event


def _board(html: str, board: int) -> str:
    row = re.search(rf'<tr data-board="{board}"[^>]*>(.*?)</tr>', html, re.DOTALL)
    assert row is not None, f"board {board} is not on the page"
    return _text(row.group(1))


def test_the_hall_shows_the_rounds_boards_and_the_standings(client: Client) -> None:
    event = _running()
    response = client.get(reverse("tournaments:hall", args=[event.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="site-header"' not in html  # a screen of its own: no navigation
    assert f'data-tournament="{event.pk}"' in html and 'src="/static/tournaments/hall.js"' in html
    assert reverse("tournaments:hall-live", args=[event.pk]) in html
    assert 'data-screen="boards"' in html and 'data-screen="standings"' in html
    for pairing in Pairing.objects.filter(tournament=event).prefetch_related("seats__entrant__user"):
        board = _board(html, pairing.board)
        for seat in pairing.seats.all():
            assert seat.entrant.user.public_name in board
        assert "playing" in board
    assert "Round 1 of 2." in _text(html)
    assert len(re.findall(r'<tr data-entrant="', html)) == 4


def test_the_halls_live_part_follows_a_result(client: Client) -> None:
    event = _running()
    pairing = Pairing.objects.filter(tournament=event).order_by("board").first()
    assert pairing is not None
    live = reverse("tournaments:hall-live", args=[event.pk])
    before = client.get(live).content.decode()
    assert "<html" not in before and "playing" in _board(before, pairing.board)
    for match_game in MatchGame.objects.filter(pairing=pairing).select_related("game"):
        finish_game(match_game.game)
    seats = list(PairingEntrant.objects.filter(pairing=pairing).select_related("entrant").order_by("position"))
    result = " – ".join(shown(seat.points) for seat in seats)
    after = client.get(live).content.decode()
    assert "playing" not in _board(after, pairing.board) and result in _board(after, pairing.board)
    for seat in seats:
        standing = re.search(rf'<tr data-entrant="{seat.entrant.key}">(.*?)</tr>', after, re.DOTALL)
        assert standing is not None and f" {shown(seat.points)} " in _text(standing.group(1))


def test_the_hall_turns_at_the_pace_asked_within_bounds(client: Client) -> None:
    event = _running()
    url = reverse("tournaments:hall", args=[event.pk])
    low, high = HALL_TURN_SECONDS_RANGE
    assert f'data-turn-seconds="{HALL_TURN_SECONDS}"' in client.get(url).content.decode()
    assert 'data-turn-seconds="20"' in client.get(url, {"seconds": "20"}).content.decode()
    assert f'data-turn-seconds="{low}"' in client.get(url, {"seconds": "1"}).content.decode()
    assert f'data-turn-seconds="{high}"' in client.get(url, {"seconds": "9999"}).content.decode()
    assert f'data-turn-seconds="{HALL_TURN_SECONDS}"' in client.get(url, {"seconds": "soon"}).content.decode()


def test_the_hall_before_the_start_lists_the_entrants(client: Client) -> None:
    event = tournament(name="Hall Cup")
    players = bots(3)
    enter(event, players)
    html = client.get(reverse("tournaments:hall", args=[event.pk])).content.decode()
    assert 'data-screen="boards"' not in html and "Open for registration" in _text(html)
    assert all(player.public_name in html for player in players)


def test_the_tournament_page_links_to_the_hall(client: Client) -> None:
    event = tournament()
    html = client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert f'href="{reverse("tournaments:hall", args=[event.pk])}"' in html


def test_the_printable_pages_carry_the_print_stylesheet(client: Client) -> None:
    event = _running()
    for name, args in (
        ("detail", [event.pk]),
        ("round", [event.pk, 1]),
        ("crosstable", [event.pk]),
        ("score-sheets", [event.pk, 1]),
    ):
        html = client.get(reverse(f"tournaments:{name}", args=args)).content.decode()
        assert re.search(rf'<link rel="stylesheet" href="/static/{PRINT_CSS}" media="print">', html), name
    from django.contrib.staticfiles import finders

    stylesheet = finders.find(PRINT_CSS)
    assert stylesheet is not None
    rules = open(stylesheet, encoding="utf-8").read()
    assert ".site-header" in rules and "break-inside: avoid" in rules and "table-header-group" in rules


def test_a_rounds_score_sheets_have_one_sheet_a_board(client: Client) -> None:
    event = _running(players=5, games_per_pairing=2)  # two boards and a bye
    response = client.get(reverse("tournaments:score-sheets", args=[event.pk, 1]))
    assert response.status_code == 200
    html = response.content.decode()
    boards = Pairing.objects.filter(tournament=event, bye=False).prefetch_related("seats__entrant__user")
    assert len(re.findall(r'<article class="score-sheet', html)) == boards.count() == 2
    for pairing in boards:
        sheet = re.search(
            rf'<article class="score-sheet card" data-board="{pairing.board}">(.*?)</article>', html, re.DOTALL
        )
        assert sheet is not None
        text = _text(sheet.group(1))
        assert f"Board {pairing.board}" in text and "Game 1" in text and "Game 2" in text and "Signature" in text
        assert all(seat.entrant.user.public_name in text for seat in pairing.seats.all())
        assert sheet.group(1).count('class="blank"') == 2 * (2 + 2)  # two games, the points and a signature
    assert client.get(reverse("tournaments:score-sheets", args=[event.pk, 9])).status_code == 404
    assert (
        reverse("tournaments:score-sheets", args=[event.pk, 1])
        in client.get(reverse("tournaments:round", args=[event.pk, 1])).content.decode()
    )


def test_the_standings_fold_their_tie_breaks_into_the_entrants_cell(client: Client) -> None:
    chief = director()
    event = tournament(chief, rounds=1)
    enter(event, bots(4))
    services.tournament_start(tournament=event, by=chief)
    play_games(event)
    html = client.get(reverse("tournaments:live", args=[event.pk])).content.decode()
    rows = re.findall(r'<tr data-entrant="[^"]+"[^>]*>(.*?)</tr>', html, re.DOTALL)
    assert len(rows) == 4
    for row in rows:
        cells = re.findall(r'<td class="number tiebreak">([^<]*)</td>', row)
        folded = re.search(r'<span class="folded-tiebreaks">(.*?)</span></td>', row, re.DOTALL)
        assert folded is not None and len(cells) == len(event.tiebreaks) > 0
        spans = re.findall(r"<span>([^<]*)</span>", folded.group(1))
        assert [span.rsplit(" ", 1)[1] for span in spans] == cells  # the same values, each with its name
        assert "Buchholz" in _text(folded.group(1))
