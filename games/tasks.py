"""Celery tasks of live games: thin, they take ids and the version they answer, and call the services.

A task that arrives late (the game moved on) or twice does nothing: the services re-check the version
under the game's row lock. Bot moves run on the `bots` queue (durak_site.celery routes `games.tasks.bot_*` there), timers and
finalisation on `games`.
"""

from __future__ import annotations

from celery import shared_task

from games import services


@shared_task(name="games.tasks.bot_move", soft_time_limit=20, time_limit=30)
def bot_move(game_id: int, seq: int) -> None:
    services.game_bot_move(game_id=game_id, seq=seq)


@shared_task(name="games.tasks.turn_timeout", soft_time_limit=20, time_limit=30)
def turn_timeout(game_id: int, seq: int) -> None:
    services.game_timeout(game_id=game_id, seq=seq)


@shared_task(name="games.tasks.finalise_game", soft_time_limit=30, time_limit=60)
def finalise_game(game_id: int) -> None:
    services.game_finalise(game_id=game_id)


@shared_task(name="games.tasks.resume_stalled_games", soft_time_limit=60, time_limit=90)
def resume_stalled_games() -> int:
    """Beat runs this every settings.GAMES_RECOVERY_SWEEP_S seconds: games whose task was lost go on."""
    from games.recovery import games_resume_stalled

    return games_resume_stalled().total
