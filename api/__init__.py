"""The public REST API (/api/v1/), the bot API (tokens, bot accounts, the bot game socket) and record import/export."""
