"""URLs of the open game data, under /data/ (durak_site.urls)."""

from django.urls import path

from gamedata import views

app_name = "gamedata"

urlpatterns = [
    path("", views.data_index, name="index"),
    path("<str:file_name>", views.data_file, name="file"),
]
