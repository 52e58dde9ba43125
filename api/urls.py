"""URLs of the REST API under /api/ (durak_site.urls): version 1, its OpenAPI schema and documentation."""

from django.urls import include, path, re_path, register_converter
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from api import tournaments, views

app_name = "api"


class IdConverter:
    """A row id: digits that fit a 64-bit column (a longer number is no row, not a database error)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")

v1 = [
    path("tables/", views.TableList.as_view(), name="tables"),
    path("tables/<id:pk>/", views.TableDetail.as_view(), name="table"),
    path("tables/<id:pk>/join/", views.TableJoin.as_view(), name="table-join"),
    path("tables/<id:pk>/leave/", views.TableLeave.as_view(), name="table-leave"),
    path("tables/<id:pk>/bots/", views.TableBots.as_view(), name="table-bots"),
    path("tables/<id:pk>/start/", views.TableStart.as_view(), name="table-start"),
    path("games/", views.GameList.as_view(), name="games"),
    path("games/<id:pk>/", views.GameDetail.as_view(), name="game"),
    path("games/<id:pk>/record/", views.GameRecord.as_view(), name="game-record"),
    path("games/<id:pk>/view/", views.GameView.as_view(), name="game-view"),
    path("games/<id:pk>/actions/", views.GameAction.as_view(), name="game-action"),
    path("games/<id:pk>/surrender/", views.GameSurrender.as_view(), name="game-surrender"),
    path("games/<id:pk>/redeal/", views.GameRedeal.as_view(), name="game-redeal"),
    path("games/<id:pk>/analysis/", views.GameAnalysis.as_view(), name="game-analysis"),
    path("players/", views.PlayerList.as_view(), name="players"),
    path("players/<str:username>/", views.PlayerDetail.as_view(), name="player"),
    path("players/<str:username>/history/", views.PlayerHistory.as_view(), name="player-history"),
    path("pools/", views.PoolList.as_view(), name="pools"),
    path("pools/<slug:slug>/", views.PoolDetail.as_view(), name="pool"),
    path("pools/<slug:slug>/leaderboard/", views.PoolLeaderboard.as_view(), name="pool-leaderboard"),
    path("account/", views.Account.as_view(), name="account"),
    path("account/bot/", views.AccountBot.as_view(), name="account-bot"),
    path("account/games/", views.AccountGames.as_view(), name="account-games"),
    path("tokens/", views.TokenList.as_view(), name="tokens"),
    path("tokens/<id:pk>/", views.TokenDetail.as_view(), name="token"),
    path("records/analysis/", views.RecordAnalysis.as_view(), name="record-analysis"),
    path("tournaments/", tournaments.TournamentList.as_view(), name="tournaments"),
    path("tournaments/<id:pk>/", tournaments.TournamentDetail.as_view(), name="tournament"),
    path("tournaments/<id:pk>/entrants/", tournaments.TournamentEntrants.as_view(), name="tournament-entrants"),
    path("tournaments/<id:pk>/rounds/", tournaments.TournamentRounds.as_view(), name="tournament-rounds"),
    path("tournaments/<id:pk>/standings/", tournaments.TournamentStandings.as_view(), name="tournament-standings"),
    path("tournaments/<id:pk>/export/", tournaments.TournamentExport.as_view(), name="tournament-export"),
    path("tournaments/<id:pk>/audit/", tournaments.TournamentAudit.as_view(), name="tournament-audit"),
    path("tournaments/<id:pk>/register/", tournaments.TournamentRegister.as_view(), name="tournament-register"),
    path("tournaments/<id:pk>/withdraw/", tournaments.TournamentWithdraw.as_view(), name="tournament-withdraw"),
    path("tournaments/<id:pk>/team/accept/", tournaments.TeamAnswer.as_view(answer="accept"), name="team-accept"),
    path("tournaments/<id:pk>/team/decline/", tournaments.TeamAnswer.as_view(answer="decline"), name="team-decline"),
    path("tournaments/<id:pk>/start/", tournaments.TournamentStart.as_view(), name="tournament-start"),
    path("tournaments/<id:pk>/pairings/<id:pairing_id>/result/", tournaments.PairingResult.as_view(),
         name="pairing-result"),
    path("tournaments/<id:pk>/pairings/<id:pairing_id>/forfeit/", tournaments.PairingForfeit.as_view(),
         name="pairing-forfeit"),
]

urlpatterns = [
    path("v1/", include(v1)),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api:schema"), name="redoc"),
    # Anything else under /api/ is answered in JSON, not with the site's HTML page.
    re_path(r"^.*$", views.not_found),
]
