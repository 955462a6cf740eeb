"""openskill (Bradley–Terry, full pairing) for games of more than two players and for team
games (Algo pairs).

Why Bradley–Terry and not openskill's default Plackett–Luce: with a tie for first place,
Plackett–Luce (openskill 6.2) gives the player who finished *second* exactly the same gain
as the two winners (ranks 1, 1, 2, 3 → μ 25.93, 25.93, 25.93, 22.21); the full Bradley–Terry
model orders every finish (30.27, 30.27, 22.37, 17.09). ``tests/progression/
test_properties.py`` checks the ordering on random finishes with ties. Its cost grows with
the square of the number of teams — at most 8 seats here.

A thin wrapper so the rest of the layer stores plain numbers: ``mu`` and ``sigma``. The shown
rating is openskill's ordinal (μ − 3σ), which starts at 0 and rises as the system grows sure;
it is marked provisional while σ is above :data:`PROVISIONAL_SIGMA` (a reading of ours: about
60% of the starting σ, which takes a new player some ten games).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import BradleyTerryFull

MODEL = BradleyTerryFull()
PROVISIONAL_SIGMA = 5.0


@dataclass(frozen=True)
class SkillRating:
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def ordinal(self) -> float:
        return self.mu - 3.0 * self.sigma

    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA


def rate(teams: Sequence[Sequence[SkillRating]], ranks: Sequence[int]) -> list[list[SkillRating]]:
    """New ratings for each team member; ``ranks`` per team, 1 = best, equal ranks tie."""
    if len(teams) != len(ranks):
        raise ValueError(f"{len(teams)} teams but {len(ranks)} ranks")
    if len(teams) < 2:
        raise ValueError("a rated result needs at least two teams")
    model_teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in teams]
    out = MODEL.rate(model_teams, ranks=[float(r) for r in ranks])
    return [[SkillRating(p.mu, p.sigma) for p in team] for team in out]


def rate_free_for_all(players: Sequence[SkillRating], ranks: Sequence[int]) -> list[SkillRating]:
    return [team[0] for team in rate([[p] for p in players], ranks)]
