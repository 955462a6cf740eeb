"""What happens around a game: running games between bots and people, matches, series."""
