"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013), written out step by step.

Why our own: the PyPI ``glicko2`` package (a 2009 port, last release 2024) evaluates the
volatility function with the rating where the paper has the deviation, and keeps τ as a
class-level global; the other candidates on PyPI are a few months old with no users. The
algorithm is fifty lines, and the paper's worked example is a test (tests/progression).

Defaults are lichess's (see shared/REFERENCE.md): start 1500, deviation 500, volatility 0.09,
τ 0.75, deviation floor 45, provisional while deviation ≥ 110. As on lichess every game is its
own rating period, and time away widens the deviation first (:func:`after_idle`), at
0.21436 rating periods a day — lichess's figure, as given in niklasf/liglicko2's research
notes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""Glicko-2's conversion factor between the Glicko scale and its internal scale."""


@dataclass(frozen=True)
class Glicko2Config:
    rating: float = 1500.0
    deviation: float = 500.0
    volatility: float = 0.09
    tau: float = 0.75
    min_deviation: float = 45.0
    max_deviation: float = 500.0
    provisional_deviation: float = 110.0
    epsilon: float = 1e-6
    periods_per_day: float = 0.21436


LICHESS = Glicko2Config()
PAPER = Glicko2Config(deviation=350.0, volatility=0.06, tau=0.5, min_deviation=0.0,
                      max_deviation=350.0)
"""The constants of Glickman's worked example (no floor, no ceiling)."""


@dataclass(frozen=True)
class Glicko2Rating:
    rating: float = 1500.0
    deviation: float = 500.0
    volatility: float = 0.09

    @classmethod
    def new(cls, config: Glicko2Config = LICHESS) -> Glicko2Rating:
        return cls(config.rating, config.deviation, config.volatility)

    def provisional(self, config: Glicko2Config = LICHESS) -> bool:
        """lichess marks a rating provisional ("?") while its deviation is ≥ 110."""
        return self.deviation >= config.provisional_deviation


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(a: Glicko2Rating, b: Glicko2Rating) -> float:
    """The chance that ``a`` beats ``b`` (draws counted half), from ``a``'s side."""
    return _e((a.rating - 1500) / SCALE, (b.rating - 1500) / SCALE, b.deviation / SCALE)


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float,
                    eps: float) -> float:
    """Step 5: the Illinois-algorithm root of f, exactly as in the paper."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)
                / (2.0 * (phi * phi + v + ex) ** 2)) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > eps:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Glicko2Rating, results: Sequence[tuple[Glicko2Rating, float]],
           config: Glicko2Config = LICHESS) -> Glicko2Rating:
    """The rating after one period with ``results`` = (opponent, score 1/0.5/0) pairs."""
    for _, score in results:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a Glicko-2 score must lie in [0, 1], not {score}")
    if not results:
        return inactive(player, 1, config)
    mu = (player.rating - 1500) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    opp = [((o.rating - 1500) / SCALE, o.deviation / SCALE, s) for o, s in results]
    v_inv = 0.0
    total = 0.0
    for mu_j, phi_j, s in opp:
        e = _e(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inv += g * g * e * (1.0 - e)
        total += g * (s - e)
    v = 1.0 / v_inv
    delta = v * total
    sigma2 = _new_volatility(sigma, phi, v, delta, config.tau, config.epsilon)
    phi_star = math.sqrt(phi * phi + sigma2 * sigma2)
    phi2 = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu2 = mu + phi2 * phi2 * total
    deviation = min(max(phi2 * SCALE, config.min_deviation), config.max_deviation)
    return Glicko2Rating(mu2 * SCALE + 1500, deviation, sigma2)


def inactive(player: Glicko2Rating, periods: int = 1,
             config: Glicko2Config = LICHESS) -> Glicko2Rating:
    """Step 6 for periods without games: the deviation grows, capped at the maximum."""
    phi = player.deviation / SCALE
    for _ in range(max(0, periods)):
        phi = math.sqrt(phi * phi + player.volatility ** 2)
    deviation = min(max(phi * SCALE, config.min_deviation), config.max_deviation)
    return Glicko2Rating(player.rating, deviation, player.volatility)


def after_idle(player: Glicko2Rating, days: float,
               config: Glicko2Config = LICHESS) -> Glicko2Rating:
    """The deviation after ``days`` without games: φ² grows by σ² per (fractional) period."""
    periods = max(0.0, days) * config.periods_per_day
    phi = player.deviation / SCALE
    phi = math.sqrt(phi * phi + periods * player.volatility ** 2)
    deviation = min(max(phi * SCALE, config.min_deviation), config.max_deviation)
    return Glicko2Rating(player.rating, deviation, player.volatility)


def rate_pair(a: Glicko2Rating, b: Glicko2Rating, score_a: float,
              config: Glicko2Config = LICHESS) -> tuple[Glicko2Rating, Glicko2Rating]:
    """Both players after one game (each from the other's rating *before* the game)."""
    return update(a, [(b, score_a)], config), update(b, [(a, 1.0 - score_a)], config)
