"""URLs of the API app's pages: the bot guide and tokens under /bots/, the analysis board at /analysis/."""

from django.urls import path

from api import pages

app_name = "api-pages"

urlpatterns = [
    path("bots/", pages.bot_guide, name="bot-guide"),
    path("bots/tokens/", pages.tokens, name="tokens"),
    path("bots/tokens/<int:token_id>/revoke/", pages.token_revoke, name="token-revoke"),
    path("bots/account/", pages.bot_account, name="bot-account"),
    path("analysis/", pages.analysis, name="analysis"),
]
