"""`{% analysis_panel game %}`: the finished game's analysis (ask for it, its progress, the result's link) for a
reader who may ask for it; nothing for anyone else or while the game is played."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import Game
from review import selectors

register = template.Library()


@register.inclusion_tag("review/_panel.html", takes_context=True)
def analysis_panel(context: dict[str, Any], game: Game) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    if not selectors.is_reviewable_game(game) or not selectors.can_review(user=user, game=game):
        return {"show": False}
    return {
        "show": True,
        "game": game,
        "analysis": selectors.analysis_of(game=game, budget="default"),
        "csrf_token": context.get("csrf_token"),
        "request": request,
    }
