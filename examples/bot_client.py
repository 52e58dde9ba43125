#!/usr/bin/env python3
"""A small bot for the Durak site's bot API: it plays with the engine's heuristic bot (games.bots).

Run it from the project's folder (it imports games.bots and games.engine, which need no Django) with the
API token of a bot account (the /bots/ page explains how to get one):

    DURAK_TOKEN=durak_... python examples/bot_client.py --server http://127.0.0.1:8000

Without --game it opens a heads-up table over REST (`Authorization: Bearer <token>`), seats one of the
site's bots (--level) and plays that game; with --game it plays the game of that id, in which its account
holds a seat. On the socket /ws/bot/game/<id>/ each `game.view` carries the seat's view, the public move
log `actions` and the deal's face-up card `face_up`, from which games.bots.knowledge rebuilds what the seat
may know; the heuristic picks one of `legal` and the client sends {"type": "action", "action", "seq"}.
It prints one JSON line when the game is over: the game, its seat, the result and how many moves it made.
The endpoints and the protocol: docs/api.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import heuristic
from games.bots.knowledge import observation_from_view


class ApiError(Exception):
    pass


def call(server: str, token: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """One REST call; the answer's JSON, or ApiError with the server's message."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        server.rstrip("/") + path, data=data, method=method,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json", "Accept": "application/json"},
    )  # fmt: skip
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        raise ApiError(f"{method} {path}: {error.code} {error.read().decode(errors='replace')}") from None


def open_game(server: str, token: str, *, preset: str, level: str, turn_seconds: int) -> int:
    """A heads-up table against one of the site's bots; the id of its game."""
    table = call(server, token, "POST", "/api/v1/tables/",
                 {"rules": {"preset": preset}, "seats": 2, "turn_seconds": turn_seconds, "name": "bot_client"})
    table = call(server, token, "POST", f"/api/v1/tables/{table['id']}/bots/", {"level": level, "fill": True})
    if table["game"] is None:
        raise ApiError("the table has no game: is every seat taken?")
    return int(table["game"])


def choose(message: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The heuristic bot's move for the seat whose view this message carries."""
    observation = observation_from_view(message["view"], message["actions"], face_up=message["face_up"])
    return dict(heuristic.choose(observation, rng).to_json())


def play(server: str, token: str, game_id: int, *, seed: int | None = None, verbose: bool = False) -> dict[str, Any]:
    from websockets.sync.client import connect

    rng = random.Random(seed)
    url = server.rstrip("/").replace("http://", "ws://").replace("https://", "wss://") + f"/ws/bot/game/{game_id}/"
    moves, answered = 0, -1
    with connect(url, additional_headers={"Authorization": f"Bearer {token}"}, open_timeout=30) as socket:
        for raw in socket:
            message = json.loads(raw)
            if message["type"] == "game.error":
                # Our last move was refused and changed nothing. A stale one (the game moved on meanwhile) is
                # followed by the current view: answer that one.
                moves -= 1
                if verbose:
                    print(f"refused: {message['code']}: {message['message']}", file=sys.stderr)
                continue
            if message["type"] != "game.view":
                continue
            if message["status"] == "finished":
                if message["result"] is not None:
                    return {"game": game_id, "seat": message["seat"], "result": message["result"], "moves": moves}
                continue
            seat, view = message["seat"], message["view"]
            if seat in message["waiting"] and view["legal"] and message["seq"] > answered:
                answered = message["seq"]
                action = choose(message, rng)
                socket.send(json.dumps({"type": "action", "action": action, "seq": message["seq"]}))
                moves += 1
                if verbose:
                    print(f"seq {message['seq']}: {action}", file=sys.stderr)
    raise ApiError("the server closed the socket before the game ended")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000", help="the site's address")
    parser.add_argument("--token", default=os.environ.get("DURAK_TOKEN", ""),
                        help="the bot account's API token (default: $DURAK_TOKEN; an option shows it to `ps`)")
    parser.add_argument("--game", type=int, help="play this game instead of opening a table")
    parser.add_argument("--level", default="easy", choices=["easy", "medium", "hard", "expert"],
                        help="the level of the site's bot to play against")
    parser.add_argument("--preset", default="podkidnoy", choices=["podkidnoy", "perevodnoy"])
    parser.add_argument("--turn-seconds", type=int, default=120)
    parser.add_argument("--seed", type=int, help="seed of the bot's random choices")
    parser.add_argument("--verbose", action="store_true", help="print each move to standard error")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("give the token in $DURAK_TOKEN (or --token)")
    try:
        game_id = args.game or open_game(args.server, args.token, preset=args.preset, level=args.level,
                                         turn_seconds=args.turn_seconds)
        summary = play(args.server, args.token, game_id, seed=args.seed, verbose=args.verbose)
    except (ApiError, OSError) as error:
        print(f"bot_client: {error}", file=sys.stderr)
        return 1
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
