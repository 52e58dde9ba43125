"""Settings for a deployed site: secrets from the environment with no fallback, refuses to start without them."""

from durak_site.environment import production_settings_check

from .base import *

# No defaults here: the hosts a deployment answers for are its own decision.
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=[])
production_settings_check(secret_key=SECRET_KEY, debug=DEBUG, allowed_hosts=ALLOWED_HOSTS)

# collectstatic has run: serve hashed, compressed files and never look in the source folders.
STATIC_ROOT = BASE_DIR / "staticfiles"
WHITENOISE_USE_FINDERS = False
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# Behind a TLS-terminating balancer.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
# The balancer's health probe speaks plain HTTP to each server.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
LANGUAGE_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 30)
# A club's site usually owns its whole domain; a deployment sharing one with plain-HTTP hosts turns these off.
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
