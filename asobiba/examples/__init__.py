"""Runnable examples shipped with the package: ``python -m asobiba.examples.flipflop_qlearning``
(needs the ``rl`` extra)."""
