"""Notices: a player is told of his pairing and reminded to take his seat, a director of disputes and
no-shows, on the site (the bell, live over the socket) and by e-mail. tournaments.services calls
notices.services to send them."""
