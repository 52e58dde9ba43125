"""URLs of the ratings pages, under /ratings/ (durak_site.urls); "ratings:list" is the navigation's Ratings."""

from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("", views.pool_list, name="list"),
    path("pool/<slug:slug>/", views.pool_leaderboard, name="leaderboard"),
    path("player/<str:username>/", views.player_profile, name="player"),
    path("fair-play/", views.fair_play, name="fair-play"),
]
