from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("sign-up/", views.sign_up, name="sign-up"),
    path("log-in/", views.LogInView.as_view(), name="login"),
    path("log-out/", auth_views.LogoutView.as_view(), name="logout"),
    path("profile/", views.profile, name="profile"),
    path("sound/", views.sound_muted, name="sound-muted"),
    path("sessions/revoke/", views.sessions_revoke, name="sessions-revoke"),
    path("password/change/", views.PasswordChangeView.as_view(), name="password-change"),
    path("password/change/done/", views.PasswordChangeDoneView.as_view(), name="password-change-done"),
    path("password/reset/", views.PasswordResetView.as_view(), name="password-reset"),
    path("password/reset/sent/", views.PasswordResetDoneView.as_view(), name="password-reset-done"),
    path(
        "password/reset/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password-reset-confirm",
    ),
    path("password/reset/done/", views.PasswordResetCompleteView.as_view(), name="password-reset-complete"),
]
