"""Settings shared by every environment; each value that differs between machines comes from the environment.

local.py (the default), test.py and production.py build on this module.
"""

import os
from datetime import timedelta
from pathlib import Path

import environ
from django.utils.translation import gettext_lazy as _

from durak_site.environment import backends_from_environment, cache_settings

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()

SECRET_KEY = env.str("SECRET_KEY", default="")
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS: list[str] = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS: list[str] = env.list("CSRF_TRUSTED_ORIGINS", default=[])

BACKENDS = backends_from_environment(os.environ, base_dir=BASE_DIR)

INSTALLED_APPS = [
    # daphne first: it replaces runserver with an ASGI server that also speaks WebSocket.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_celery_beat",
    "django_countries",
    "axes",
    "durak_site",
    "accounts",
    "games",
    "tournaments",
    "ratings",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "api",
    "notices",
    "gamedata",
    "review",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "api.http.RefuseNulCharacters",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The reader's time zone (his profile's, else his browser's), after the account is known.
    "durak_site.time_zones.TimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its refusal page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "durak_site.urls"
ASGI_APPLICATION = "durak_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "durak_site.navigation.navigation",
            ],
        },
    },
]

DATABASES = BACKENDS.databases
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CHANNEL_LAYERS = BACKENDS.channel_layers
# Threads of a server process that apply moves side by side (games.consumers); each holds a database
# connection while it works, so keep it below the pool's size (DATABASE_POOL_SIZE).
GAME_WRITER_THREADS = env.int("GAME_WRITER_THREADS", default=4)

# Accounts
AUTH_USER_MODEL = "accounts.User"
# django-axes first: it refuses a locked-out login before the password is even checked.
AUTHENTICATION_BACKENDS = ["accounts.backends.LoginThrottleBackend", "accounts.backends.HumanOnlyBackend"]
# Login brute force (issue 10): five failures for one user name from one address lock that pair out for
# 15 minutes (429 and a page saying so); a success clears the count. Attempts are kept in the database,
# where an admin sees and clears them (Django admin, Axes).
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "accounts/locked_out.html"
AXES_VERBOSE = False
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# E-mail: printed to the console unless EMAIL_URL names a real server (smtp://user:pass@host:587).
_email = env.email_url("EMAIL_URL", default="consolemail://")
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_HOST = _email.get("EMAIL_HOST") or "localhost"
EMAIL_PORT = _email.get("EMAIL_PORT") or 25
EMAIL_HOST_USER = _email.get("EMAIL_HOST_USER") or ""
EMAIL_HOST_PASSWORD = _email.get("EMAIL_HOST_PASSWORD") or ""
EMAIL_USE_TLS = bool(_email.get("EMAIL_USE_TLS"))
EMAIL_USE_SSL = bool(_email.get("EMAIL_USE_SSL"))
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Durak championships <noreply@localhost>")
# The site's address, for the links of e-mails sent outside a request (notices).
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")

# Languages: English by default, Russian for browsers that ask for it, a switch on every page.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ru", _("Russian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = env.str("TIME_ZONE", default="Europe/Moscow")
USE_TZ = True

# Static files, served by WhiteNoise from the app server itself.
STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Outside production WhiteNoise reads the source folders, so nobody has to run collectstatic.
WHITENOISE_USE_FINDERS = True

# Celery. Without REDIS_URL tasks run on a scheduler thread in the server process (durak_site.celery).
TASKS_IN_PROCESS = BACKENDS.tasks_in_process
CELERY_BROKER_URL = BACKENDS.celery_broker_url
CELERY_RESULT_BACKEND = BACKENDS.celery_result_backend
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# Celery's Django fixup closes a prefork worker's database connections before and after every task, and
# with Django's connection pool it closes the whole pool: each task then started a new pool (its threads)
# and a new PostgreSQL connection, most of a bot move's CPU in bench/soak.py. It closes them every this
# many tasks instead; each task still gives back a connection that failed or grew old (durak_site.celery).
CELERY_DB_REUSE_MAX = 500
# games.recovery: how often beat sweeps for games whose next task was lost (a broker restarted empty, a
# worker killed), and how long a bot seat may stay silent before its move is scheduled again. Beat's
# schedule (durak_site/celery.py) reads the same variable.
# The monthly files of open game data (gamedata): written here by `manage.py export_games` and the monthly task,
# served by /data/. Git ignores var/.
GAME_DATA_DIR = Path(env.str("GAME_DATA_DIR", default=str(BASE_DIR / "var" / "gamedata")))

GAMES_RECOVERY_SWEEP_S = env.float("GAMES_RECOVERY_SWEEP_S", default=15.0)
GAMES_RECOVERY_BOT_AFTER_S = env.float("GAMES_RECOVERY_BOT_AFTER_S", default=20.0)
# Whether bots keep their table's pace (games.models.BotPace: at once, about a second, slowly); off, every bot
# answers at once whatever its table says (the tests' settings, so that a test's bot moves never outlive it).
GAMES_BOT_PACE = env.bool("GAMES_BOT_PACE", default=True)
# A person's move starts from the game its process kept after writing it, written in one statement when the
# row is unchanged (games.services.kept; PostgreSQL only); off: every move locks and reads the row.
GAMES_KEPT_MOVES = env.bool("GAMES_KEPT_MOVES", default=True)
# The lobby's list of tables goes out at most once in this many seconds from a process (0: after every
# change; games.broadcast.send_lobby).
LOBBY_SEND_EVERY_S = env.float("LOBBY_SEND_EVERY_S", default=1.0)
# How many database connections each server process's event loop keeps for the kept moves it makes itself,
# without a writer thread (games.services.loop_moves); 0: every move goes to a writer thread.
GAMES_LOOP_CONNECTIONS = env.int("GAMES_LOOP_CONNECTIONS", default=4)
# Heads-up Swiss rounds paired by the exact FIDE Dutch engine (tournaments.pairing.dutch, issue 35); off: by
# tournaments.pairing.swiss, after the Dutch system's principles (a round of 1,000 entrants in a quarter of a
# second, where the exact engine takes about half a second, and one of 5,000 in 9 to 17 s).
TOURNAMENT_DUTCH_PAIRING = env.bool("TOURNAMENT_DUTCH_PAIRING", default=True)
# Game review (review/): how many new analyses a person may ask for in 24 hours (one already stored is not
# counted, nor one a tournament queues for every game).
ANALYSES_PER_DAY = env.int("ANALYSES_PER_DAY", default=10)

# The REST API (api/, docs/api.md): tokens or the session, rate limits per user (per address for anonymous
# callers) counted in the shared cache, pages of 50, OpenAPI 3 schema at /api/schema/.
CACHES = cache_settings(redis_url=os.environ.get("REDIS_URL") or None)
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_THROTTLE_CLASSES": ["api.throttling.AnonRateThrottle", "api.throttling.UserRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("API_RATE_ANON", default="120/minute"),
        "user": env.str("API_RATE_USER", default="600/minute"),
    },
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pages",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer", "rest_framework.renderers.BrowsableAPIRenderer"],
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Durak championships API",
    "DESCRIPTION": "Tables, games and their records, players, ratings and the bot API. See docs/api.md.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "api.schema.add_error_responses"],
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "games.models.GameStatus", "TableStatusEnum": "games.models.TableStatus",
        "TournamentFormatEnum": "tournaments.models.Format",
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    # A refused request (403, 400) is logged on one line, without its traceback (durak_site.log_filters).
    "filters": {"refusals_on_one_line": {"()": "durak_site.log_filters.RefusalsOnOneLine"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain", "filters": ["refusals_on_one_line"]}
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    # Replaces Django's own "django" handlers, which would print each record a second time.
    "loggers": {
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "django.request": {"handlers": ["console"], "level": "INFO", "propagate": False, "filters": ["refusals_on_one_line"]},
        # Celery writes a line for every task that succeeds (each bot's move, each timer): only its warnings and
        # errors (a task that failed or was retried) reach the console.
        "celery.app.trace": {"level": "WARNING"},
        "celery.worker.strategy": {"level": "WARNING"},
    },
}
