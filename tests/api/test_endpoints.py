"""Every REST endpoint: what it answers, what it refuses and to whom (tokens, pages, filters, rate limits)."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings
from rest_framework.test import APIClient

from api.models import ApiToken, BotAccount
from api.services import key_hash
from games import services as game_services
from games.models import Game, GameStatus, Table, TableStatus
from games.selectors import game_record_json
from ratings.models import RatedGame, RatingPool
from tests.api.conftest import bot_account, token_client
from tests.games.factories import latest_game, person, table
from tests.ratings.helpers import finished_game, play_out

pytestmark = pytest.mark.django_db


# --- tokens and authentication ------------------------------------------------------------------


def test_a_token_is_shown_once_and_stored_only_as_its_hash() -> None:
    anna = person("anna")
    session = APIClient()
    session.force_authenticate(anna)
    made = session.post("/api/v1/tokens/", {"name": "my bot"}, format="json")
    assert made.status_code == 201 and made["Cache-Control"] == "no-store"
    key = made.json()["key"]
    assert key.startswith("durak_") and made.json()["prefix"] == key[:12]
    stored = ApiToken.objects.get(user=anna)
    assert stored.key_hash == key_hash(key) and key not in json.dumps(list(ApiToken.objects.values()), default=str)

    listed = session.get("/api/v1/tokens/").json()
    assert [token["name"] for token in listed] == ["my bot"] and key not in json.dumps(listed)

    with_token = APIClient()
    with_token.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert with_token.get("/api/v1/account/").json()["username"] == "anna"
    assert session.delete(f"/api/v1/tokens/{stored.pk}/").status_code == 204
    refused = with_token.get("/api/v1/account/")
    assert refused.status_code == 401 and key not in refused.content.decode()


def test_wrong_tokens_and_anonymous_callers_are_refused_where_an_account_is_needed() -> None:
    anonymous = APIClient()
    assert anonymous.get("/api/v1/account/").status_code in (401, 403)
    assert anonymous.post("/api/v1/tables/", {}, format="json").status_code in (401, 403)
    wrong = APIClient()
    wrong.credentials(HTTP_AUTHORIZATION="Bearer durak_not-a-real-key")
    assert wrong.get("/api/v1/players/").status_code == 401
    # Another scheme in the header is not ours to judge: the caller is simply anonymous.
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION="Basic dXNlcjpwYXNz")
    assert other.get("/api/v1/players/").status_code == 200


def test_someone_elses_token_cannot_be_revoked() -> None:
    anna, boris = person("anna"), person("boris")
    token_client(anna)
    client = token_client(boris)
    assert client.delete(f"/api/v1/tokens/{ApiToken.objects.get(user=anna).pk}/").status_code == 404
    assert ApiToken.objects.filter(user=anna).exists()


def test_the_bot_account_mark_is_refused_to_directors_and_to_seated_players() -> None:
    from accounts.roles import Role
    from accounts.services import user_role_grant

    director = person("director")
    user_role_grant(user=director, role=Role.TOURNAMENT_DIRECTOR)
    answer = token_client(director).post("/api/v1/account/bot/")
    assert answer.status_code == 400 and not BotAccount.objects.exists()

    seated = person("seated")
    game_services.table_join(table=table(seated), user=seated)
    assert token_client(seated).post("/api/v1/account/bot/").status_code == 400

    free = person("free")
    client = token_client(free)
    answer = client.post("/api/v1/account/bot/")
    assert answer.status_code == 200 and answer.json()["bot_account"] is True and answer.json()["bot"] is True
    assert client.get("/api/v1/account/").json()["bot_kind"] == "program"


def test_rate_limits_are_per_user() -> None:
    cache.clear()
    anna, boris = person("anna"), person("boris")
    first, second = token_client(anna), token_client(boris)
    rates = {"anon": "2/minute", "user": "3/minute"}
    with override_settings(REST_FRAMEWORK={**settings.REST_FRAMEWORK,
                                           "DEFAULT_THROTTLE_RATES": rates}):
        assert [first.get("/api/v1/pools/").status_code for _ in range(4)] == [200, 200, 200, 429]
        assert second.get("/api/v1/pools/").status_code == 200
        anonymous = APIClient()
        assert [anonymous.get("/api/v1/pools/").status_code for _ in range(3)] == [200, 200, 429]
        assert "Retry-After" in first.get("/api/v1/pools/")
    cache.clear()


# --- tables and moves ---------------------------------------------------------------------------


def test_a_table_is_opened_joined_filled_with_bots_and_started_through_the_services() -> None:
    anna, boris = person("anna"), person("boris")
    client = token_client(anna)
    made = client.post("/api/v1/tables/", {"rules": {"preset": "perevodnoy"}, "seats": 3, "name": "Evening"},
                       format="json")
    assert made.status_code == 201, made.content
    table_id = made.json()["id"]
    assert made.json()["seats"][0]["player"]["username"] == "anna" and made.json()["rules"]["transfer"] is True

    assert token_client(boris).post(f"/api/v1/tables/{table_id}/join/", {"seat": 2}, format="json").status_code == 200
    # Only the owner seats bots; a bot seat must be free.
    assert token_client(boris).post(f"/api/v1/tables/{table_id}/bots/", {"level": "easy"}, format="json").status_code == 403
    taken = client.post(f"/api/v1/tables/{table_id}/bots/", {"level": "easy", "seat": 2}, format="json")
    assert taken.status_code == 400 and "taken" in taken.json()["detail"]
    filled = client.post(f"/api/v1/tables/{table_id}/bots/", {"level": "medium", "fill": True}, format="json")
    assert filled.status_code == 200 and filled.json()["status"] == TableStatus.PLAYING
    assert filled.json()["game"] == latest_game(Table.objects.get(pk=table_id)).pk
    assert client.get("/api/v1/tables/?status=playing").json()["count"] == 1
    assert client.get("/api/v1/tables/?status=open").json()["count"] == 0


def test_table_refusals_carry_the_services_reasons() -> None:
    anna = person("anna")
    client = token_client(anna)
    bad = client.post("/api/v1/tables/", {"rules": {"deck": 37}, "seats": 2}, format="json")
    assert bad.status_code == 400 and "rules" in bad.json()
    assert client.post("/api/v1/tables/", {"rules": {"preset": "podkidnoy"}, "seats": 9}, format="json").status_code == 400
    cheating = client.post("/api/v1/tables/", {"rules": {"cheating": True}, "seats": 2, "rated": True}, format="json")
    assert cheating.status_code == 400
    assert client.post("/api/v1/tables/", {"rules": {}, "seats": 5, "join": False}, format="json").status_code == 201
    too_rich = client.post("/api/v1/tables/", {"rules": {}, "seats": 2, "stake": 1_000_000}, format="json")
    assert too_rich.status_code == 400 and Table.objects.filter(stake=1_000_000).count() == 0
    private = table(anna, private=True)
    assert token_client(person("boris")).get(f"/api/v1/tables/{private.pk}/").status_code == 404
    joined = token_client(person("vera")).post(f"/api/v1/tables/{private.pk}/join/?link_token={private.link_token}",
                                               {}, format="json")
    assert joined.status_code == 200
    assert client.post(f"/api/v1/tables/{private.pk}/leave/").status_code == 400  # anna never sat down
    assert client.post(f"/api/v1/tables/{private.pk}/start/").status_code == 400  # seats still free


def test_moves_through_the_api_are_checked_like_the_sockets() -> None:
    anna, boris = person("anna"), person("boris")
    at = table(anna)
    game_services.table_join(table=at, user=anna)
    game_services.table_join(table=at, user=boris)
    game = latest_game(at)
    anna_client, boris_client = token_client(anna), token_client(boris)
    view = anna_client.get(f"/api/v1/games/{game.pk}/view/").json()
    mover = anna_client if view["seat"] in view["waiting"] else boris_client
    other = boris_client if mover is anna_client else anna_client
    legal = mover.get(f"/api/v1/games/{game.pk}/view/").json()["view"]["legal"]

    stale = mover.post(f"/api/v1/games/{game.pk}/actions/", {"action": legal[0], "seq": 5}, format="json")
    assert stale.status_code == 409 and stale.json()["code"] == "stale"
    illegal = other.post(f"/api/v1/games/{game.pk}/actions/", {"action": {"type": "take"}, "seq": 0}, format="json")
    assert illegal.status_code == 400 and illegal.json()["code"] in ("illegal", "malformed")
    stranger = token_client(person("stranger")).post(
        f"/api/v1/games/{game.pk}/actions/", {"action": legal[0], "seq": 0}, format="json"
    )
    assert stranger.status_code == 403 and stranger.json()["code"] == "forbidden"
    malformed = mover.post(f"/api/v1/games/{game.pk}/actions/", {"action": {"type": "fly"}, "seq": 0}, format="json")
    assert malformed.status_code == 400
    played = mover.post(f"/api/v1/games/{game.pk}/actions/", {"action": legal[0], "seq": 0}, format="json")
    assert played.status_code == 200 and played.json()["seq"] == 1
    assert Game.objects.get(pk=game.pk).seq == 1
    again = mover.post(f"/api/v1/games/{game.pk}/actions/", {"action": legal[0], "seq": 0}, format="json")
    assert again.status_code == 409 and Game.objects.get(pk=game.pk).seq == 1

    gave_up = other.post(f"/api/v1/games/{game.pk}/surrender/", {"seq": 1}, format="json")
    assert gave_up.status_code == 200 and gave_up.json()["status"] == GameStatus.FINISHED
    assert other.post(f"/api/v1/games/{game.pk}/surrender/", {}, format="json").json()["code"] == "finished"


def test_my_games_list_the_running_games_where_i_hold_a_seat() -> None:
    bot = bot_account("robot")
    client = token_client(bot)
    made = client.post("/api/v1/tables/", {"rules": {"preset": "podkidnoy"}, "seats": 2}, format="json").json()
    assert client.get("/api/v1/account/games/").json()["count"] == 0
    client.post(f"/api/v1/tables/{made['id']}/bots/", {"level": "easy", "fill": True}, format="json")
    mine = client.get("/api/v1/account/games/").json()["results"]
    assert [(game["game"], game["seat"]) for game in mine] == [(latest_game(Table.objects.get(pk=made["id"])).pk, 0)]


# --- games, records, players, ratings -----------------------------------------------------------


def test_a_finished_games_record_downloads_as_json_and_csv_and_a_running_ones_is_refused() -> None:
    anna, boris = person("anna"), person("boris")
    game, result = finished_game([anna, boris])
    client = APIClient()
    record = client.get(f"/api/v1/games/{game.pk}/record/")
    assert record.status_code == 200 and "attachment" in record["Content-Disposition"]
    assert record.json() == json.loads(json.dumps(game_record_json(game=game)))
    as_csv = client.get(f"/api/v1/games/{game.pk}/record/?format=csv")
    assert as_csv.status_code == 200 and as_csv["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(as_csv.content.decode())))
    assert len(rows) == len(record.json()["actions"]) and rows[0]["player"] in ("anna", "boris")

    detail = client.get(f"/api/v1/games/{game.pk}/").json()
    assert detail["result"]["places"] == result.places and detail["deck"] == game.revealed_deck
    assert detail["rating_pool"]["slug"] and len(detail["rating_changes"]) == 2

    running = latest_game(_running_table())
    assert client.get(f"/api/v1/games/{running.pk}/record/").status_code == 409
    assert client.get(f"/api/v1/games/{running.pk}/record/?format=csv").status_code == 409
    assert client.get("/api/v1/games/999999/record/").status_code == 404


def _running_table() -> Table:
    vera, gleb = person(), person()
    at = table(vera)
    game_services.table_join(table=at, user=vera)
    game_services.table_join(table=at, user=gleb)
    return at


def test_game_lists_filter_by_player_status_and_rating() -> None:
    anna, boris, vera = person("anna"), person("boris"), person("vera")
    rated, _ = finished_game([anna, boris])
    unrated, _ = finished_game([anna, vera], rated=False)
    running = latest_game(_running_table())
    private = table(vera, private=True)
    game_services.table_join(table=private, user=vera)
    game_services.table_join(table=private, user=anna)
    hidden = latest_game(private)
    client = APIClient()

    def ids(query: str, who: APIClient = client) -> set[int]:
        return {game["id"] for game in who.get(f"/api/v1/games/{query}").json()["results"]}

    assert ids("") == {rated.pk, unrated.pk, running.pk}
    assert ids("?status=finished") == {rated.pk, unrated.pk}
    assert ids("?player=boris") == {rated.pk}
    assert ids("?rated=true") == {rated.pk} and ids("?rated=false") == {unrated.pk, running.pk}
    assert ids(f"?pool={RatedGame.objects.get().pool.slug}") == {rated.pk}
    assert hidden.pk in ids("", token_client(anna)) and hidden.pk not in ids("", token_client(boris))
    assert client.get(f"/api/v1/games/{hidden.pk}/").status_code == 404
    assert client.get("/api/v1/games/?status=nonsense").status_code == 400
    page = client.get("/api/v1/games/?page_size=2").json()
    assert page["count"] == 3 and len(page["results"]) == 2 and page["next"]


def test_players_ratings_history_pools_and_leaderboards() -> None:
    anna, boris = person("anna"), person("boris")
    robot = bot_account("robot")
    for _ in range(2):
        finished_game([anna, boris])
    pool = RatedGame.objects.first().pool  # type: ignore[union-attr]
    client = APIClient()
    players = client.get("/api/v1/players/").json()
    assert {"anna", "boris", "robot"} <= {player["username"] for player in players["results"]}
    assert [p["username"] for p in client.get("/api/v1/players/?bot=true").json()["results"]] == ["robot"]
    assert "robot" not in {p["username"] for p in client.get("/api/v1/players/?bot=false").json()["results"]}
    assert [p["username"] for p in client.get("/api/v1/players/?search=ann").json()["results"]] == ["anna"]

    detail = client.get("/api/v1/players/anna/").json()
    assert detail["ratings"][0]["pool"]["slug"] == pool.slug and detail["ratings"][0]["games"] == 2
    assert client.get(f"/api/v1/players/{robot.username}/").json()["bot_kind"] == "program"
    history = client.get(f"/api/v1/players/anna/history/?pool={pool.slug}").json()
    assert history["count"] == 2 and history["results"][0]["after"] == detail["ratings"][0]["rating"]
    assert client.get("/api/v1/players/anna/history/?pool=none").json()["count"] == 0
    assert client.get("/api/v1/players/nobody/").status_code == 404

    pools = client.get("/api/v1/pools/").json()
    assert pool.slug in {row["slug"] for row in pools}
    assert client.get(f"/api/v1/pools/{pool.slug}/").json()["games"] == 2
    board = client.get(f"/api/v1/pools/{pool.slug}/leaderboard/?min_games=1&days=0").json()
    assert {row["player"]["username"] for row in board} == {"anna", "boris"} and board[0]["rank"] == 1
    assert client.get(f"/api/v1/pools/{pool.slug}/leaderboard/").json() == []  # 5 games needed by default
    assert client.get(f"/api/v1/pools/{pool.slug}/leaderboard/?min_games=x").status_code == 400
    assert client.get("/api/v1/pools/none/leaderboard/").status_code == 404


def test_a_bot_account_plays_no_pool_for_people_only() -> None:
    anna, robot = person("anna"), bot_account("robot")
    RatingPool.objects.update(humans_only=True)
    game, _ = finished_game([anna, robot])
    assert not RatedGame.objects.filter(game=game).exists()
    RatingPool.objects.update(humans_only=False)
    game, _ = finished_game([anna, robot])
    assert RatedGame.objects.filter(game=game).exists()


# --- records for analysis -----------------------------------------------------------------------


def test_an_imported_record_is_replayed_step_by_step_or_refused_with_the_engines_reason() -> None:
    anna, boris = person("anna"), person("boris")
    game, result = finished_game([anna, boris])
    record = game_record_json(game=game)
    client = APIClient()
    answer = client.post("/api/v1/records/analysis/", record, format="json").json()
    assert answer["ok"] and answer["finished"] and len(answer["steps"]) == len(record["actions"]) + 1
    assert answer["result"]["durak"] == result.durak
    assert answer["steps"][0]["state"]["hands"] == record["hands"]

    broken = {**record, "actions": [*record["actions"][:3], {"seat": 0, "type": "cover", "attack": "6S", "card": "7S"}]}
    answer = client.post("/api/v1/records/analysis/", broken, format="json").json()
    assert not answer["ok"] and answer["index"] == 3 and len(answer["steps"]) == 4

    answer = client.post("/api/v1/records/analysis/", {"rules": {}, "hands": "nope"}, format="json").json()
    assert not answer["ok"] and answer["index"] is None and answer["steps"] == []
    assert client.post("/api/v1/records/analysis/", "[1, 2", content_type="application/json").status_code == 400


def test_a_played_out_game_via_services_is_listed_with_its_result() -> None:
    anna, boris = person("anna"), person("boris")
    at = table(anna)
    game_services.table_join(table=at, user=anna)
    game_services.table_join(table=at, user=boris)
    game = play_out(latest_game(at))
    listed = APIClient().get(f"/api/v1/games/{game.pk}/").json()
    assert listed["status"] == "finished" and listed["result"] is None  # over, not finalised yet
    game_services.game_finalise(game_id=game.pk)
    assert APIClient().get(f"/api/v1/games/{game.pk}/").json()["result"]["outcome"] in ("durak", "draw")


def test_inputs_the_database_cannot_hold_are_refused_not_crashed_on() -> None:
    client = APIClient()
    assert client.get("/api/v1/players/?search=%00").status_code == 400
    assert client.get("/api/v1/players/a%00b/").status_code == 400
    assert client.post("/api/v1/records/analysis/", '{"rules": "\\u0000"}', content_type="application/json").status_code == 400
    assert client.get("/api/v1/games/?finished_after=0001-01-01T00:00:00%2B23:59").status_code == 400
    assert client.get("/api/v1/games/?finished_after=0187-10-08T07:47:21%2B21:02").status_code == 200
    assert client.get("/api/v1/games/99999999999999999999/").status_code == 404
