"""Ratings: Elo per pool, per-game rating history, leaderboards; the maths is the pure ratings/elo.py."""
