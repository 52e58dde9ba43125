"""URLs of the tournament pages, under /tournaments/ (durak_site.urls); "tournaments:list" is the
navigation's Tournaments."""

from django.urls import path

from tournaments import avoidance_views, views, views_entrants, views_hall, views_results

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.tournament_create, name="create"),
    path("<int:tournament_id>/", views.tournament_detail, name="detail"),
    path("<int:tournament_id>/live/", views.tournament_live, name="live"),
    path("<int:tournament_id>/register/", views.tournament_register, name="register"),
    path("<int:tournament_id>/withdraw/", views.tournament_withdraw, name="withdraw"),
    path("<int:tournament_id>/team/<str:answer>/", views.team_answer, name="team-answer"),
    path("<int:tournament_id>/pairing/<int:pairing_id>/seat/", views.pairing_check_in, name="check-in"),
    path("<int:tournament_id>/pairing/<int:pairing_id>/dispute/", views.dispute_file, name="dispute"),
    path("<int:tournament_id>/round/<int:number>/", views.round_page, name="round"),
    path("<int:tournament_id>/crosstable/", views.crosstable_page, name="crosstable"),
    path("<int:tournament_id>/entrant/<int:number>/", views.entrant_page, name="entrant"),
    path("<int:tournament_id>/log/", views.audit_page, name="log"),
    path("<int:tournament_id>/standings.csv", views.standings_csv, name="standings-csv"),
    path("<int:tournament_id>/tournament.json", views.export_json, name="export"),
    path("<int:tournament_id>/tournament.trf", views.export_trf, name="export-trf"),
    path("<int:tournament_id>/direct/", views.direct_page, name="direct"),
    path("<int:tournament_id>/direct/<str:act>/", views.direct_act, name="act"),
    path("<int:tournament_id>/hall/", views_hall.hall_page, name="hall"),
    path("<int:tournament_id>/hall/live/", views_hall.hall_live, name="hall-live"),
    path("<int:tournament_id>/round/<int:number>/sheets/", views_hall.score_sheets, name="score-sheets"),
    path("<int:tournament_id>/entrants/search/", views_entrants.people_search, name="people-search"),
    path("<int:tournament_id>/entrants/preview/", views_entrants.import_preview, name="import-preview"),
    path("<int:tournament_id>/entrants/<str:act>/", views_entrants.entrants_act, name="entrants-act"),
    path("<int:tournament_id>/check-in/", views_entrants.presence_confirm, name="presence"),
    path("invitation/<str:invitation>/", views_entrants.invitation_page, name="invitation"),
]

urlpatterns += [
    path("<int:tournament_id>/direct/avoidances/add/", avoidance_views.avoidance_add, name="avoidance-add"),
    path(
        "<int:tournament_id>/direct/avoidances/<int:avoidance_id>/remove/", avoidance_views.avoidance_remove,
        name="avoidance-remove",
    ),
    path("<int:tournament_id>/direct/board/<int:pairing_id>/result/", views_results.board_result, name="board-result"),
    path("<int:tournament_id>/direct/game/<int:match_game_id>/decide/", views_results.game_decide, name="game-decide"),
]
