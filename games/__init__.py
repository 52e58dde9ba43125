"""Games: live tables, the rules engine (games/engine) and the bots (games/bots)."""
