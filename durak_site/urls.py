from django.contrib import admin
from django.urls import include, path

from durak_site import views

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("language/", views.language_switch, name="language-switch"),
    path("healthz", views.healthz, name="healthz"),
    # Browsers ask for /favicon.ico whatever the page links; the PNG drawn from static/favicon.svg answers.
    path("favicon.ico", views.favicon, name="favicon"),
    path("accounts/", include("accounts.urls")),
    path("play/", include("games.urls")),
    path("ratings/", include("ratings.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("api/", include("api.urls")),
    path("notices/", include("notices.urls")),
    path("data/", include("gamedata.urls")),
    path("review/", include("review.urls")),
    path("", include("api.page_urls")),
    path("admin/", admin.site.urls),
]
