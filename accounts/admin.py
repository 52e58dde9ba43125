from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    list_display = ("username", "display_name", "country", "is_bot", "bot_engine", "bot_level", "is_staff")
    list_filter = ("is_bot", "bot_level", "is_staff", "is_superuser", "groups")
    search_fields = ("username", "display_name", "email")
    fieldsets = (
        *(DjangoUserAdmin.fieldsets or ()),
        (_("Profile"), {"fields": ("display_name", "country", "preferred_language")}),
        (_("Bot"), {"fields": ("is_bot", "bot_engine", "bot_level")}),
    )
