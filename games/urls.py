"""URLs of the play pages, under /play/ (durak_site.urls); "games:play" is the navigation's Play."""

from django.urls import path

from games import views, views_replay

app_name = "games"

urlpatterns = [
    path("", views.play, name="play"),
    path("tables/", views.lobby_tables, name="lobby-tables"),
    path("tables/new/", views.table_create, name="table-create"),
    path("table/<int:table_id>/", views.table_page, name="table"),
    path("table/<int:table_id>/seats/", views.table_seats, name="table-seats"),
    path("table/<int:table_id>/join/", views.table_join, name="table-join"),
    path("table/<int:table_id>/leave/", views.table_leave, name="table-leave"),
    path("table/<int:table_id>/bots/", views.table_bots, name="table-bots"),
    path("table/<int:table_id>/bots/remove/", views.table_remove_bot, name="table-remove-bot"),
    path("table/<int:table_id>/start/", views.table_start, name="table-start"),
    path("link/<str:token>/", views.table_link, name="table-link"),
    path("game/<int:game_id>/", views.game_page, name="game"),
    path("game/<int:game_id>/record.json", views.game_record, name="game-record"),
    path("game/<int:game_id>/replay/", views_replay.game_replay, name="game-replay"),
]
