"""tournaments.pairing.trf: TRF written column for column (a golden file), read back, and refused when malformed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournaments.pairing import BoardResult, Side
from tournaments.pairing.swiss import pairing_numbers
from tournaments.pairing.trf import TrfError, TrfGame, TrfPlayer, TrfTournament, read_trf, tournament_trf, write_trf

SMALL = Path(__file__).parent / "data" / "small.trf"

RATINGS = {"e1": 1500.0, "e2": 1720.4, "e3": 1610.0, "e4": 1610.0, "e5": 1390.0}
NAMES = {"e1": "Anna", "e2": "Boris", "e3": "Vera", "e4": "Grigory Nikolaevich Longname-Petrovsky", "e5": "Dmitry"}
ROUNDS = [
    [  # pairing numbers: e2 1, e3 2, e4 3, e1 4, e5 5
        BoardResult(entrants=("e2", "e4"), points=(1.0, 0.0), first="e2"),
        BoardResult(entrants=("e1", "e3"), points=(0.5, 0.5), first="e1"),
        BoardResult(entrants=("e5",), points=(1.0,), bye=True),
    ],
    [
        BoardResult(entrants=("e5", "e2"), points=(0.0, 1.0), first="e5"),
        BoardResult(entrants=("e3", "e4"), points=(1.0, 0.0), forfeit=True),
        BoardResult(entrants=("e1",), points=(0.5,)),  # a requested half-point bye
    ],
    [  # e1 absent
        BoardResult(entrants=("e2", "e3"), points=(0.0, 2.0), first="e3"),
        BoardResult(entrants=("e4", "e5"), points=(0.0, 0.0), forfeit=True),
    ],
]


def _small() -> TrfTournament:
    return tournament_trf("Spring Swiss", RATINGS, ROUNDS, names=NAMES, planned_rounds=5)


def test_pairing_numbers_follow_rating_then_id() -> None:
    assert pairing_numbers(RATINGS) == {"e2": 1, "e3": 2, "e4": 3, "e1": 4, "e5": 5}


def test_small_tournament_matches_the_golden_file() -> None:
    assert write_trf(_small()) == SMALL.read_bytes().decode("utf-8")


def test_golden_file_has_crlf_and_fide_columns() -> None:
    lines = SMALL.read_bytes().decode("utf-8").split("\r\n")
    assert lines[-1] == "" and all("\n" not in line for line in lines)
    first = next(line for line in lines if line.startswith("001    1"))
    # FIDE's 1-based columns: name 15, rating 49-52, points 81-84, rank 86-89, round 1 at 92-95/97/99.
    assert first[14:19] == "Boris" and first[48:52] == "1720" and first[80:84] == " 2.0" and first[85:89] == "   2"
    assert first[91:95] == "   3" and first[96] == "w" and first[98] == "1"


def test_codes_of_each_kind_of_round() -> None:
    players = {player.name: player for player in _small().players}
    assert players["Dmitry"].games == (
        TrfGame(None, "-", "U"), TrfGame(1, "w", "0"), TrfGame(3, "-", "-"),
    )  # fmt: skip
    assert players["Anna"].games == (TrfGame(2, "w", "="), TrfGame(None, "-", "H"), TrfGame(None, "-", "Z"))
    assert players["Vera"].games[1:] == (TrfGame(3, "-", "+"), TrfGame(1, "w", "1"))
    assert players["Vera"].points == 3.5 and players["Vera"].rank == 1
    assert len(players["Grigory Nikolaevich Longname-Petr"].name) == 33


def test_read_gives_back_what_was_written() -> None:
    small = _small()
    assert read_trf(write_trf(small)) == small
    assert read_trf(SMALL.read_text(encoding="utf-8")) == small  # universal newlines: LF


def test_write_of_read_is_the_file() -> None:
    text = SMALL.read_bytes().decode("utf-8")
    assert write_trf(read_trf(text)) == text


def test_round_trip_of_a_hand_made_tournament() -> None:
    tournament = TrfTournament(
        name="Ёлка", rounds=None, initial_colour="black1",
        players=(
            TrfPlayer(1, "Пётр", 2100, 1.0, 1, (TrfGame(2, "b", "1"), TrfGame(None, "-", " "))),
            TrfPlayer(2, "", 0, 0.0, 2, (TrfGame(1, "w", "0"),)),
        ),
    )  # fmt: skip
    text = write_trf(tournament)
    assert "XXR" not in text and "XXC black1\r\n" in text
    assert read_trf(text) == tournament


def test_black1_when_the_top_seed_starts_second() -> None:
    assert tournament_trf("x", RATINGS, [], initial=Side.SECOND).initial_colour == "black1"


def test_unknown_tags_are_skipped() -> None:
    text = "012 Cup\r\n042 2026/01/01\r\n\r\n" + write_trf(_small()).split("\r\n", 1)[1]
    assert read_trf(text).players == _small().players


@pytest.mark.parametrize(
    "line",
    [
        "001    1      Short",  # too short
        "001    x      A" + " " * 80,  # pairing number
        "001    1      A" + " " * 65 + "abcd    1",  # points
        "001    1      A" + " " * 65 + " 1.0    1     2 w 1",  # opponent 2 does not exist
        "001    1      A" + " " * 65 + " 1.0    1     1 w 1",  # himself
        "001    1      A" + " " * 65 + " 1.0    1  0000 x U",  # colour
        "001    1      A" + " " * 65 + " 1.0    1  0000 - Q",  # result
        "001    1      A" + " " * 65 + " 1.0    1 0000 - U",  # out of its columns
    ],
)
def test_malformed_player_lines_are_refused(line: str) -> None:
    with pytest.raises(TrfError):
        read_trf(line + "\r\n")


def test_duplicate_numbers_and_bad_headers_are_refused() -> None:
    line = write_trf(_small()).split("\r\n")[3]
    with pytest.raises(TrfError, match="same pairing number"):
        read_trf(f"{line}\r\n{line}\r\n")
    with pytest.raises(TrfError, match="XXR"):
        read_trf("XXR five\r\n")
    with pytest.raises(TrfError, match="XXC"):
        read_trf("XXC red1\r\n")


def test_unwritable_tournaments_are_refused() -> None:
    table = [[BoardResult(entrants=("e1", "e2", "e3"), points=(2.0, 1.0, 0.0), first="e1")]]
    with pytest.raises(TrfError, match="heads-up"):
        tournament_trf("x", RATINGS, table)
    with pytest.raises(TrfError, match="name"):
        write_trf(TrfTournament("x", (TrfPlayer(1, "n" * 34, 1500, 0.0, 1),)))
    with pytest.raises(TrfError, match="four digits"):
        write_trf(TrfTournament("x", (TrfPlayer(1, "n", 10000, 0.0, 1),)))
    with pytest.raises(TrfError, match="XXC"):
        write_trf(TrfTournament("x", (), initial_colour="white"))
