"""Learned evaluations (issue 31 item 1): n-tuple (pattern) tables trained by TD(λ) from
self-play, scored in NumPy by the existing alpha-beta (docs/learning.md).

* :mod:`.ntuple` — the patterns, their symmetry sharing, the tables and their file (NumPy: the
  ``learned`` extra, which the ``train`` extra includes);
* :mod:`.spec` — what learning needs from a game (Reversi's bitboards);
* :mod:`.td` — one self-play game and the TD(λ) update of its positions (NumPy);
* :mod:`.selfplay` — the run on Ray: self-play workers, the learner, checkpoints and the
  progress bar (the ``train`` extra: Ray, tqdm).

Nothing here is imported by the rules, the bots of today's levels or the CLI's start-up.
"""
