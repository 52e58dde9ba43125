"""URLs of game review, under /review/ (durak_site.urls)."""

from django.urls import path

from review import views

app_name = "review"

urlpatterns = [
    path("game/<int:game_id>/analyse/", views.analysis_request, name="analyse"),
    path("game/<int:game_id>/analysis.json", views.analysis_json, name="analysis-json"),
]
