"""Tournaments: the pure pairing logic (issue 28 item 1; docs/tournaments.md).

No web, no database: the server's driver (``asobiba/server/tournament_routes.py``) stores the
tournaments and calls these functions with what has been played so far.

* :mod:`.swiss` — Swiss pairing by maximum-weight matching (networkx) under the Dutch-system
  constraints of docs/tournaments.md, and the Buchholz / Sonneborn–Berger tie-breaks;
* :mod:`.arena` — Arena (lichess style): 2/1/0 points with a streak bonus, pairing of the
  players who are free now (close scores, no immediate rematch, a cap per pair);
* :mod:`.seating` — rounds of tables for games of three or more seats, seats rotated, points
  by placing.
"""
