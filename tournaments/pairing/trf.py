"""FIDE's Tournament Report File (TRF): a heads-up tournament as text, so that any FIDE checker can re-pair it.

Only what a pairing checker reads is written and read: the ``012`` tournament name, the ``XXR`` number of
rounds, the ``XXC`` initial colour (``white1``: the first pairing number gets white, our first attack, in
round 1) and one ``001`` line a player in FIDE's columns; other tags are skipped when read. Lines end in
CRLF. First attack stands in for colour: ``w`` attacked first. The points column is our score (several
games a pairing may give other sums than the result codes').

Results of our rounds as TRF codes (``tournament_trf``): a game won, drawn or lost on points ``1`` / ``=`` /
``0``; a forfeit ``+`` / ``-``; the pairing-allocated bye ``0000 - U``; a requested bye of 1, 0.5 or 0 points
``0000 - F`` / ``H`` / ``Z``; an absence ``0000 - Z``. The columns: docs/architecture.md, "Pairing".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.pairing.model import BoardResult, EntrantId, Round, Side
from tournaments.pairing.swiss import pairing_numbers

RESULTS = frozenset("10=+-WDLFHUZ ")
COLOURS = frozenset("wb-")
INITIAL_COLOURS = ("white1", "black1")
NAME_WIDTH = 33
_ROUNDS_AT = 89  # 0-based start of the first round block (two spaces, then the opponent at column 92)
_BLOCK = 10


class TrfError(ValueError):
    """A TRF that cannot be read, or a tournament that cannot be written as one."""


@dataclass(frozen=True, slots=True)
class TrfGame:
    """One round of a player: the opponent's pairing number (None: not paired), colour and result code."""

    opponent: int | None
    colour: str
    result: str


@dataclass(frozen=True, slots=True)
class TrfPlayer:
    number: int
    name: str
    rating: int
    points: float
    rank: int
    games: tuple[TrfGame, ...] = ()


@dataclass(frozen=True, slots=True)
class TrfTournament:
    name: str
    players: tuple[TrfPlayer, ...]
    rounds: int | None = None  # XXR
    initial_colour: str = "white1"  # XXC


def write_trf(tournament: TrfTournament) -> str:
    """The tournament as TRF text, CRLF line endings."""
    if tournament.initial_colour not in INITIAL_COLOURS:
        raise TrfError(f"XXC must be one of {INITIAL_COLOURS}, not {tournament.initial_colour!r}")
    lines = [f"012 {tournament.name}"]
    if tournament.rounds is not None:
        lines.append(f"XXR {tournament.rounds}")
    lines.append(f"XXC {tournament.initial_colour}")
    lines += [_player_line(player) for player in sorted(tournament.players, key=lambda player: player.number)]
    return "".join(line + "\r\n" for line in lines)


def _player_line(player: TrfPlayer) -> str:
    if not 1 <= player.number <= 9999 or not 0 <= player.rating <= 9999 or not 0 <= player.rank <= 9999:
        raise TrfError(f"player {player.number}: number, rating and rank must fit four digits")
    if len(player.name) > NAME_WIDTH or "\n" in player.name or "\r" in player.name:
        raise TrfError(f"player {player.number}: the name must be one line of at most {NAME_WIDTH} characters")
    if not 0 <= player.points <= 99.5:
        raise TrfError(f"player {player.number}: points out of range")
    head = f"001 {player.number:>4}      {player.name:<{NAME_WIDTH}} {player.rating:>4}"
    head = f"{head:<80}{player.points:>4.1f} {player.rank:>4}"
    blocks = []
    for game in player.games:
        if game.colour not in COLOURS or game.result not in RESULTS or len(game.result) != 1:
            raise TrfError(f"player {player.number}: bad colour {game.colour!r} or result {game.result!r}")
        opponent = 0 if game.opponent is None else game.opponent
        if not 0 <= opponent <= 9999:
            raise TrfError(f"player {player.number}: opponent {opponent} out of range")
        blocks.append(f"  {opponent:>4} {game.colour} {game.result}")
    return head + "".join(blocks)


def read_trf(text: str) -> TrfTournament:
    """Parse TRF text (CRLF or LF); unknown tags are skipped. Raises TrfError on anything malformed."""
    name = ""
    rounds: int | None = None
    initial = "white1"
    players: list[TrfPlayer] = []
    for number, line in enumerate(text.splitlines(), start=1):
        tag, value = line[:3], line[4:].strip()
        if not line.strip():
            continue
        if tag == "012":
            name = value
        elif tag == "XXR":
            rounds = _integer(value, f"line {number}: XXR")
        elif tag == "XXC":
            if value not in INITIAL_COLOURS:
                raise TrfError(f"line {number}: XXC must be one of {INITIAL_COLOURS}, not {value!r}")
            initial = value
        elif tag == "001":
            players.append(_read_player(line, number))
    _check_players(players)
    return TrfTournament(name=name, players=tuple(players), rounds=rounds, initial_colour=initial)


def _integer(text: str, where: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise TrfError(f"{where}: {text!r} is not a number") from None


def _read_player(line: str, number: int) -> TrfPlayer:
    where = f"line {number}"
    if len(line) < _ROUNDS_AT - 1:
        raise TrfError(f"{where}: a 001 line needs at least {_ROUNDS_AT - 1} characters")
    rating = line[48:52].strip()
    try:
        points = float(line[80:84])
    except ValueError:
        raise TrfError(f"{where}: points {line[80:84]!r} is not a number") from None
    rest = line[_ROUNDS_AT:].rstrip()
    games = []
    for start in range(0, len(rest), _BLOCK):
        block = rest[start : start + _BLOCK].ljust(_BLOCK)
        if block[:2].strip() or block[6] != " " or block[8] != " ":
            raise TrfError(f"{where}: round {start // _BLOCK + 1} is not in TRF's columns")
        opponent = _integer(block[2:6].strip() or "0", f"{where}: round {start // _BLOCK + 1} opponent")
        colour, result = block[7], block[9]
        if colour not in COLOURS or result not in RESULTS:
            raise TrfError(f"{where}: round {start // _BLOCK + 1} has colour {colour!r}, result {result!r}")
        games.append(TrfGame(opponent=opponent or None, colour=colour, result=result))
    return TrfPlayer(
        number=_integer(line[4:8].strip(), f"{where}: pairing number"), name=line[14:47].strip(),
        rating=_integer(rating or "0", f"{where}: rating"), points=points,
        rank=_integer(line[85:89].strip() or "0", f"{where}: rank"), games=tuple(games),
    )  # fmt: skip


def _check_players(players: Sequence[TrfPlayer]) -> None:
    numbers = {player.number for player in players}
    if len(numbers) != len(players):
        raise TrfError("two 001 lines have the same pairing number")
    for player in players:
        for index, game in enumerate(player.games, start=1):
            if game.opponent is not None and (game.opponent not in numbers or game.opponent == player.number):
                raise TrfError(f"player {player.number}, round {index}: no such opponent {game.opponent}")


def tournament_trf(
    name: str,
    ratings: Mapping[EntrantId, float],
    rounds: Sequence[Round],
    *,
    names: Mapping[EntrantId, str] | None = None,
    ranks: Mapping[EntrantId, int] | None = None,
    planned_rounds: int | None = None,
    initial: Side = Side.FIRST,
) -> TrfTournament:
    """Our heads-up tournament (``ratings`` names every entrant, ``rounds`` the results so far) as a TRF.

    Pairing numbers are ``swiss.pairing_numbers``; ``names`` default to the ids (cut to 33 characters);
    ``ranks`` default to the order by points, then pairing number. A table (three or more) raises TrfError.
    """
    numbers = pairing_numbers(ratings)
    games: dict[EntrantId, list[TrfGame]] = {entrant: [] for entrant in ratings}
    points = dict.fromkeys(ratings, 0.0)
    for number, results in enumerate(rounds, start=1):
        for result in results:
            if len(result.entrants) > 2:
                raise TrfError(f"a TRF holds heads-up pairings only, not the table {result.entrants}")
            for entrant, game in _games(result, numbers).items():
                if entrant not in games:
                    raise TrfError(f"result names {entrant!r}, who has no rating")
                if len(games[entrant]) >= number:
                    raise TrfError(f"{entrant!r} has two results in round {number}")
                games[entrant].append(game)
                points[entrant] += result.points[result.entrants.index(entrant)]
        for played in games.values():
            if len(played) < number:  # absent
                played.append(TrfGame(opponent=None, colour="-", result="Z"))
    if ranks is None:
        order = sorted(ratings, key=lambda entrant: (-points[entrant], numbers[entrant]))
        ranks = {entrant: index + 1 for index, entrant in enumerate(order)}
    players = tuple(
        TrfPlayer(
            number=numbers[entrant], name=((names or {}).get(entrant) or entrant)[:NAME_WIDTH].replace("\n", " "),
            rating=round(ratings[entrant]), points=points[entrant], rank=ranks.get(entrant, 0),
            games=tuple(games[entrant]),
        )
        for entrant in sorted(ratings, key=numbers.__getitem__)
    )  # fmt: skip
    colour = "white1" if initial is Side.FIRST else "black1"
    return TrfTournament(name=name, players=players, rounds=planned_rounds, initial_colour=colour)


def _games(result: BoardResult, numbers: Mapping[EntrantId, int]) -> dict[EntrantId, TrfGame]:
    """One result as each of its entrants' TRF round."""
    if len(result.entrants) == 1:
        code = "U" if result.bye else {1.0: "F", 0.5: "H"}.get(result.points[0], "Z")
        return {result.entrants[0]: TrfGame(opponent=None, colour="-", result=code)}
    (a, b), (pa, pb) = result.entrants, result.points
    if result.forfeit:
        decided = pa != pb and max(pa, pb) > 0
        return {
            a: TrfGame(opponent=numbers[b], colour="-", result="+" if decided and pa > pb else "-"),
            b: TrfGame(opponent=numbers[a], colour="-", result="+" if decided and pb > pa else "-"),
        }
    colours = {a: "-", b: "-"} if result.first is None else {
        a: "w" if result.first == a else "b", b: "w" if result.first == b else "b",
    }  # fmt: skip
    return {
        a: TrfGame(opponent=numbers[b], colour=colours[a], result=_played_code(pa, pb)),
        b: TrfGame(opponent=numbers[a], colour=colours[b], result=_played_code(pb, pa)),
    }


def _played_code(mine: float, theirs: float) -> str:
    return "=" if mine == theirs else "1" if mine > theirs else "0"
