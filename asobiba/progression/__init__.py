"""Progression: accounts, ratings, match formats, the ladder, daily challenges, feedback."""
