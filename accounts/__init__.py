"""Accounts: users and their profiles, roles (player, tournament director, admin) and bot accounts."""
