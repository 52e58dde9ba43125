"""Tournaments: Swiss and round-robin events, their rounds, pairings (tournaments/pairing) and standings."""
