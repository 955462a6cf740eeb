"""A conditional logit fitted by Newton's method, shared by the benchmarks that model a
choice among alternatives (who comes first, which move is played).

Each row is a matrix of features, one line per alternative, and the index of the one
chosen; the chance of alternative *i* is softmax(x @ beta)[i]. The fit maximises the mean
log-likelihood with a small ridge (``ridge`` · |beta|² / 2), which keeps the Hessian
invertible when a feature does not vary.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def fit_conditional_logit(rows: Sequence[tuple[np.ndarray, int]], dim: int, *,
                          ridge: float = 1e-3, steps: int = 30,
                          tol: float = 1e-8) -> np.ndarray:
    """The weights after at most ``steps`` Newton steps, stopping once no weight moves by
    ``tol`` or more."""
    beta = np.zeros(dim)
    for _ in range(steps):
        grad, hess = -ridge * beta, -ridge * np.eye(dim)
        for x, chosen in rows:
            z = x @ beta
            p = np.exp(z - z.max())
            p /= p.sum()
            mean = p @ x
            grad += x[chosen] - mean
            hess -= (x * p[:, None]).T @ x - np.outer(mean, mean)
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < tol:
            break
    return beta
