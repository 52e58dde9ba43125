"""Every change to ratings: rating a finished game exactly once, matching a game to its pool, recomputing.

The maths is ratings/elo.py; this module loads and locks rows, calls ``elo.apply_game`` and stores what it
returns. A pool's games are rated one at a time (the pool's row is locked), in the order of their
``sequence`` numbers, and ``ratings_recompute`` replays them in that order through the very same
``elo.apply_game``: that is why a recomputation gives exactly the ratings the incremental updates gave.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.engine import EngineError, Rules
from ratings import elo
from ratings.models import (
    EpauletteRecord, EpauletteRole, PlayerRating, PoolFormat, RatedGame, RatingChange, RatingPool,
)

if TYPE_CHECKING:
    from games.models import Game, Result

logger = logging.getLogger(__name__)

RECOMPUTE_BATCH = 2000


def _normalised_rules(rules: Rules | Mapping[str, Any]) -> dict[str, Any] | None:
    try:
        built = rules if isinstance(rules, Rules) else Rules.from_dict(dict(rules))
    except (EngineError, TypeError, ValueError):
        return None
    return built.to_dict()


def pool_for_rules(*, rules: Rules | Mapping[str, Any], players: int, teams: bool | None = None) -> RatingPool | None:
    """The active pool whose rule set is exactly ``rules`` and whose format takes ``players`` (in teams when
    ``teams``; by default when the rules play in teams), or None: such a game is not rated.

    Both sides are compared as full ``Rules.to_dict()`` values, so an option left at its default matches
    the same option written out. Cheating rules never match (RULES.md, "Rated games").
    """
    wanted = _normalised_rules(rules)
    if wanted is None or wanted["cheating"]:
        return None
    if teams is None:
        teams = wanted["teams"] is not None
    if teams:
        game_format = PoolFormat.TEAMS_2V2
    else:
        game_format = PoolFormat.HEADS_UP if players == 2 else PoolFormat.MULTI
    candidates = RatingPool.objects.filter(
        active=True, format=game_format, min_players__lte=players, max_players__gte=players
    ).order_by("position", "pk")
    for pool in candidates:
        if _normalised_rules(pool.rules) == wanted:
            return pool
    return None


def _outcome_json(outcome: elo.Outcome) -> dict[str, Any]:
    return {"places": [list(group) for group in outcome.places], "teams": [list(team) for team in outcome.teams]}


def _stored_changes(rated_game: RatedGame) -> list[RatingChange]:
    return list(rated_game.changes.select_related("user").order_by("seat"))


def _tally(row: PlayerRating, seat: int, outcome: elo.Outcome) -> None:
    """Count the game in the player's record: a draw, a win (first place of a decided game: went out
    first, or on the winning team) or a durak finish (last place: the durak, or on the losing team)."""
    if len(outcome.places) == 1:
        row.draws += 1
    elif seat in outcome.places[0]:
        row.wins += 1
    elif seat in outcome.places[-1]:
        row.durak_finishes += 1


def _epaulette_rows(
    rated_game: RatedGame, players: Sequence[User], outcome: elo.Outcome, epaulettes: Mapping[str, Any] | None
) -> list[EpauletteRecord]:
    """RULES.md, Epaulettes: ``by`` hung them on ``seat``; in team games ``seat`` is null and the losing
    team (the last place) receives them."""
    if not epaulettes or epaulettes.get("rank") is None or epaulettes.get("by") is None:
        return []
    rank = str(epaulettes["rank"])
    rows = [EpauletteRecord(rated_game=rated_game, user=players[int(epaulettes["by"])], role=EpauletteRole.HUNG,
                            rank=rank)]
    durak = epaulettes.get("seat")
    receivers = [int(durak)] if durak is not None else list(outcome.places[-1])
    rows += [EpauletteRecord(rated_game=rated_game, user=players[seat], role=EpauletteRole.RECEIVED, rank=rank)
             for seat in receivers]
    return rows


def _locked_rows(locked_pool: RatingPool, user_ids: Sequence[int]) -> dict[int, PlayerRating]:
    """The players' rows of the pool, locked in the order of their ids; a player's first game creates his."""
    rows = {
        row.user_id: row
        for row in PlayerRating.objects.select_for_update().filter(pool=locked_pool, user_id__in=user_ids).order_by(
            "user_id"
        )
    }
    missing = sorted(set(user_ids) - set(rows))
    if missing:
        # New rows are seen by nobody else before this transaction commits, and the pool lock keeps any
        # other rating of this pool from creating them at the same time.
        for row in PlayerRating.objects.bulk_create([PlayerRating(user_id=uid, pool=locked_pool) for uid in missing]):
            rows[row.user_id] = row
    return rows


def _store_rows(
    rows: Mapping[int, PlayerRating], user_ids: Sequence[int], elo_changes: Sequence[elo.EloChange],
    outcome: elo.Outcome, played_at: datetime.datetime,
) -> None:
    """Write each player's new rating and record (wins, draws, durak finishes, last played) to his row."""
    now = timezone.now()
    for seat, (uid, change) in enumerate(zip(user_ids, elo_changes, strict=True)):
        row = rows[uid]
        row.updated = now
        row.rating, row.games, row.peak = change.after.rating, change.after.games, change.after.peak
        _tally(row, seat, outcome)
        if row.last_played is None or played_at > row.last_played:
            row.last_played = played_at
    for uid in sorted(rows):
        # One plain UPDATE a player: bulk_update's CASE expressions cost more than they save at a table.
        row = rows[uid]
        PlayerRating.objects.filter(pk=row.pk).update(
            rating=row.rating, games=row.games, peak=row.peak, wins=row.wins, durak_finishes=row.durak_finishes,
            draws=row.draws, last_played=row.last_played, updated=row.updated,
        )


@transaction.atomic
def rating_apply_game(
    *,
    pool: RatingPool,
    game_key: str,
    players: Sequence[User],
    outcome: elo.Outcome,
    played_at: datetime.datetime,
    game: Game | None = None,
    epaulettes: Mapping[str, Any] | None = None,
) -> list[RatingChange]:
    """Rate one game of ``pool`` (``players[seat]`` sat at each seat) and return every seat's change.

    Exactly once per ``game_key``, however often or concurrently it is called: the pool's row is locked,
    which orders the pool's games (their ``sequence``), then the players' rows in the order of their ids
    (one order for every caller, so no two callers deadlock); a key already rated returns the stored
    changes, and the unique ``game_key`` refuses a second row should anything get past that check.
    Raises ValueError when the outcome does not fit the table (elo.rate_game's check) or a player sits twice.
    """
    existing = RatedGame.objects.filter(game_key=game_key).first()
    if existing is not None:
        return _stored_changes(existing)
    locked_pool = RatingPool.objects.select_for_update().get(pk=pool.pk)
    existing = RatedGame.objects.filter(game_key=game_key).first()
    if existing is not None:
        return _stored_changes(existing)

    user_ids = [player.pk for player in players]
    if len(set(user_ids)) != len(user_ids):
        raise ValueError("a player sits at the table twice")
    rows = _locked_rows(locked_pool, user_ids)
    standings = {uid: rows[uid].as_elo() for uid in user_ids}
    elo_changes = elo.apply_game(standings, elo.EloGame(players=tuple(user_ids), outcome=outcome))

    locked_pool.last_sequence += 1
    locked_pool.save(update_fields=["last_sequence"])
    rated_game = RatedGame.objects.create(
        pool=locked_pool, game_key=game_key, game=game, played_at=played_at, sequence=locked_pool.last_sequence,
        outcome=_outcome_json(outcome), epaulettes=dict(epaulettes) if epaulettes else None,
    )
    changes = [
        RatingChange(
            rated_game=rated_game, user=players[seat], seat=seat, before=change.before.rating,
            after=change.after.rating, delta=change.delta, k=change.k, provisional=elo.is_provisional(change.after),
        )
        for seat, change in enumerate(elo_changes)
    ]
    RatingChange.objects.bulk_create(changes)
    _store_rows(rows, user_ids, elo_changes, outcome, played_at)
    if epaulettes:
        EpauletteRecord.objects.bulk_create(_epaulette_rows(rated_game, players, outcome, epaulettes))
    return changes


# --- the hook: finished live games ---------------------------------------------------------------


def _team_seats(game: Game, rules: Rules) -> tuple[tuple[int, ...], ...]:
    """The teams as the engine plays them: the record's ``teams``, else even seats against odd seats."""
    recorded = (game.record or {}).get("teams")
    if recorded:
        return tuple(tuple(sorted(int(seat) for seat in team)) for team in recorded)
    if rules.teams:
        return (tuple(range(0, game.players, 2)), tuple(range(1, game.players, 2)))
    return ()


def rating_game_finished(result: Result) -> None:
    """The games.hooks callback (registered in RatingsConfig.ready), run inside ``game_finalise``'s
    transaction."""
    rating_rate_result(result=result)


def rating_rate_result(*, result: Result) -> list[RatingChange] | None:
    """Rate a finished live game if its table is rated and a pool takes it; the changes, or None. An unrated or unmatched game is left alone with a log line; database errors
    propagate, so the finalisation rolls back and is retried whole."""
    from games.models import Seat

    game = result.game
    if not game.table.rated:
        logger.info("game %s: not rated (the table is unrated)", game.pk)
        return None
    try:
        rules = Rules.from_dict(game.rules)
    except EngineError as error:
        logger.warning("game %s: not rated, its rules do not build: %s", game.pk, error)
        return None
    teams = _team_seats(game, rules)
    pool = pool_for_rules(rules=rules, players=game.players, teams=bool(teams))
    if pool is None:
        logger.info("game %s: not rated, no active pool has its rules for %s players", game.pk, game.players)
        return None
    seats = list(
        Seat.objects.select_related("user").filter(table_id=game.table_id, number__lt=game.players).order_by("number")
    )
    players = [seat.user for seat in seats]
    if len(players) != game.players or any(player is None for player in players):
        logger.warning("game %s: not rated, a seat has no player", game.pk)
        return None
    people = [player for player in players if player is not None]
    if pool.humans_only and (
        any(player.is_bot for player in people)
        # A bot account (api.models.BotAccount: a program plays it) counts as a bot here too.
        or User.objects.filter(pk__in=[player.pk for player in people], bot_account__isnull=False).exists()
    ):
        logger.info("game %s: not rated, pool %s is for people only and a bot played", game.pk, pool.slug)
        return None
    if len({player.pk for player in people}) != len(people):
        logger.info("game %s: not rated, one account held two seats", game.pk)
        return None
    try:
        outcome = elo.Outcome(places=tuple(tuple(int(s) for s in group) for group in result.places), teams=teams)
        elo.rate_game([elo.EloRating()] * len(people), outcome)  # checks the places fit the table
    except (TypeError, ValueError) as error:
        logger.warning("game %s: not rated, its places do not fit the table: %s", game.pk, error)
        return None
    return rating_apply_game(
        pool=pool, game_key=f"game:{game.pk}", players=people, outcome=outcome,
        played_at=game.finished or result.created, game=game, epaulettes=result.epaulettes,
    )


def rating_game_outcome_set(*, game: Game, places: Sequence[Sequence[int]] | None) -> RecomputeSummary | None:
    """A director changed a rated game's result to ``places`` (groups of seats, best first), or annulled
    it (None: a forfeit replaces what was played). The stored outcome changes (its epaulettes go: they
    belonged to the result as played) and the pool is recomputed, so every later rating follows. Nothing
    for a game that was not rated. Raises ValueError when the places do not fit the table."""
    rated_game = RatedGame.objects.filter(game=game).select_related("pool").first()
    if rated_game is None:
        return None
    pool = rated_game.pool
    with transaction.atomic():
        if places is None:
            rated_game.delete()
        else:
            outcome = elo.Outcome(places=tuple(tuple(int(seat) for seat in group) for group in places),
                                  teams=rated_game.elo_outcome().teams)
            elo.rate_game([elo.EloRating()] * rated_game.changes.count(), outcome)  # checks the places fit
            rated_game.outcome = _outcome_json(outcome)
            rated_game.epaulettes = None
            rated_game.save(update_fields=["outcome", "epaulettes"])
            EpauletteRecord.objects.filter(rated_game=rated_game).delete()
        return ratings_recompute(pool=pool)


# --- recomputation -------------------------------------------------------------------------------


@dataclass
class RecomputeSummary:
    pools: int = 0
    games: int = 0
    players: int = 0
    changes_rewritten: int = 0  # RatingChange rows whose stored numbers differed from the replay
    ratings_rewritten: int = 0  # PlayerRating rows whose stored numbers differed from the replay
    per_pool: dict[str, int] = field(default_factory=dict)


Progress = Callable[[RatingPool, int, int], None]


def _pool_games(pool: RatingPool) -> Iterator[tuple[RatedGame, list[RatingChange]]]:
    """The pool's rated games in sequence order with their changes in seat order, read in batches."""
    last = 0
    while True:
        batch = list(RatedGame.objects.filter(pool=pool, sequence__gt=last).order_by("sequence")[:RECOMPUTE_BATCH])
        if not batch:
            return
        by_game: dict[int, list[RatingChange]] = {game.pk: [] for game in batch}
        for change in RatingChange.objects.filter(rated_game__in=batch).order_by("rated_game_id", "seat"):
            by_game[change.rated_game_id].append(change)
        for game in batch:
            yield game, by_game[game.pk]
        last = batch[-1].sequence


@dataclass
class _Replay:
    """A pool's games replayed: each player's standing and record, the last game he played, the games done."""

    standings: dict[int, elo.EloRating] = field(default_factory=dict)
    records: dict[int, PlayerRating] = field(default_factory=dict)
    last_played: dict[int, datetime.datetime] = field(default_factory=dict)
    done: int = 0


def _replay_pool(pool: RatingPool, summary: RecomputeSummary, progress: Progress | None) -> _Replay:
    """Replay the pool's games in order, rewriting (in batches) every RatingChange whose numbers differ."""
    total = RatedGame.objects.filter(pool=pool).count()
    replay = _Replay()
    stale: list[RatingChange] = []
    for rated_game, changes in _pool_games(pool):
        outcome = rated_game.elo_outcome()
        user_ids = tuple(change.user_id for change in changes)
        for seat, (change, result) in enumerate(
            zip(changes, elo.apply_game(replay.standings, elo.EloGame(players=user_ids, outcome=outcome)), strict=True)
        ):
            record = replay.records.setdefault(change.user_id, PlayerRating(user_id=change.user_id, pool=pool))
            _tally(record, seat, outcome)
            previous = replay.last_played.get(change.user_id)
            if previous is None or rated_game.played_at > previous:
                replay.last_played[change.user_id] = rated_game.played_at
            fresh = (result.before.rating, result.after.rating, result.delta, float(result.k),
                     elo.is_provisional(result.after))
            if (change.before, change.after, change.delta, change.k, change.provisional) != fresh:
                change.before, change.after, change.delta, change.k, change.provisional = fresh
                stale.append(change)
        if len(stale) >= RECOMPUTE_BATCH:
            RatingChange.objects.bulk_update(stale, ["before", "after", "delta", "k", "provisional"], batch_size=500)
            summary.changes_rewritten += len(stale)
            stale = []
        replay.done += 1
        if progress is not None and (replay.done % 1000 == 0 or replay.done == total):
            progress(pool, replay.done, total)
    RatingChange.objects.bulk_update(stale, ["before", "after", "delta", "k", "provisional"], batch_size=500)
    summary.changes_rewritten += len(stale)
    return replay


def _recompute_pool(pool: RatingPool, summary: RecomputeSummary, progress: Progress | None) -> None:
    pool = RatingPool.objects.select_for_update().get(pk=pool.pk)
    replay = _replay_pool(pool, summary, progress)
    existing = {row.user_id: row for row in PlayerRating.objects.filter(pool=pool)}
    fields = ["rating", "games", "peak", "wins", "durak_finishes", "draws", "last_played"]
    to_update: list[PlayerRating] = []
    to_create: list[PlayerRating] = []
    for uid, standing in replay.standings.items():
        fresh_row = replay.records[uid]
        fresh_row.rating, fresh_row.games, fresh_row.peak = standing.rating, standing.games, standing.peak
        fresh_row.last_played = replay.last_played.get(uid)
        row = existing.pop(uid, None)
        if row is None:
            to_create.append(fresh_row)
        elif any(getattr(row, name) != getattr(fresh_row, name) for name in fields):
            for name in fields:
                setattr(row, name, getattr(fresh_row, name))
            to_update.append(row)
    now = timezone.now()
    for row in to_update:
        row.updated = now
    PlayerRating.objects.bulk_create(to_create)
    PlayerRating.objects.bulk_update(to_update, [*fields, "updated"], batch_size=500)
    # A rating with no rated game behind it any more (its games were deleted) is removed.
    orphans = list(existing)
    PlayerRating.objects.filter(pool=pool, user_id__in=orphans).delete()
    summary.ratings_rewritten += len(to_create) + len(to_update) + len(orphans)
    summary.pools += 1
    summary.games += replay.done
    summary.players += len(replay.standings)
    summary.per_pool[pool.slug] = replay.done


def ratings_recompute(*, pool: RatingPool | None = None, progress: Progress | None = None) -> RecomputeSummary:
    """Replay every rated game of ``pool`` (default: every pool) in order through ratings.elo and rewrite
    the PlayerRating and RatingChange rows to what the replay gives; each pool in its own transaction,
    with the pool's row locked so that no game is rated meanwhile. ``progress(pool, done, total)`` is
    called every thousand games and at the end of each pool."""
    summary = RecomputeSummary()
    pools = [pool] if pool is not None else list(RatingPool.objects.order_by("position", "pk"))
    for one in pools:
        with transaction.atomic():
            _recompute_pool(one, summary, progress)
    return summary
