"""Experiments on Algo's level 6 (issue 31 item 3), each a bench bot replacing a part of
it: its four-player chance of coming first *learned* from games of level-4 players instead
of guessed (``learned``), a pair-play model that values each player of a pair still in
(``6:bonus=X``), and a one-round look-ahead with level-4 bots as the model of the others
(``lookahead``). None was stronger than level 6 (docs/benchmarks.md, "Algo, four-player and
pair play: a learned chance of coming first, …"), so none is a level; this file keeps them
reproducible.

The learned model. Level 6 takes a player's chance of coming first as a softmax of the
table's cover of its row, ``exp(H_i) / Σ exp(H_j)``. Here the softmax's score (a conditional
logit over the players still in) is fitted by maximum likelihood to who won games of four
level-4 players, over what the table sees at the end of a turn: ``H`` and ``H²``, the row's
face-down cards ``k``, both again when the pile is empty, and the player's place in the order
of play from the next to move (0, 1, 2; the last is the reference).

``gen`` plays four-player games of four level-4 bots (game seeds ``first .. first+n-1``,
bot seeds ``10·i + seat``) and writes, for every end of a turn, each row's cover and
face-down cards, the next player to move, the pile's size and the winner. ``fit`` fits the
model by Newton's method (L2 penalty 1e-3) on the games of the first 80 % of seeds, prints
the held-out mean log-likelihood of the winner beside level 6's softmax and "everyone alike",
and writes the weights (``algo_value.json`` holds the ones measured)::

    nice -n 5 python bench/algo_value.py gen 100000 483 a.jsonl
    nice -n 5 python bench/algo_value.py gen 101500 509 b.jsonl
    python bench/algo_value.py fit a.jsonl b.jsonl --out bench/algo_value.json

The arena reads the bots as specs: ``learned`` or ``learned:weights=FILE`` (level 6 with
the learned chance in four-player games), ``6:bonus=X`` (pair play: a pair's strength is its
summed cover plus X per player still in) and ``lookahead[:deals=D,top=T]``, e.g.
``python bench/algo_plan_arena.py four learned 4 300 5000 --paired 6``. ``fit`` needs NumPy
(the ``learned`` extra).
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from conditional_logit import fit_conditional_logit

from asobiba.games import get
from asobiba.games.algo.bots import public_knowledge
from asobiba.games.algo.infer import Knowledge
from asobiba.games.algo.plan import AlgoPlanBot, covers
from asobiba.games.algo.views import AlgoView
from asobiba.play.runner import play_game

GAME = get("algo")
WEIGHTS = Path(__file__).with_name("algo_value.json")
FEATURES = ("cover", "cards", "cover_empty_pile", "cards_empty_pile", "next", "second",
            "third", "cover_squared")


def features(cover: float, cards: int, empty: bool, place: int) -> list[float]:
    """The features of one player still in (``place``: 0 for the next to move)."""
    e = 1.0 if empty else 0.0
    return [cover, float(cards), cover * e, cards * e, float(place == 0),
            float(place == 1), float(place == 2), cover * cover]


def learned_chance(h: Sequence[float], cards: Sequence[int], seat: int, mover: int,
                   empty: bool, w: Sequence[float]) -> float:
    """The model's chance that ``seat`` comes first, from the covers ``h`` (−1: out), the
    face-down cards of each row, the next player to move and whether the pile is empty."""
    if h[seat] < 0:
        return 0.0
    n = len(h)
    alive = [s for s in ((mover + j) % n for j in range(n)) if h[s] >= 0]
    if len(alive) == 1:
        return 1.0
    score = {s: sum(a * b for a, b in zip(w, features(h[s], cards[s], empty, place)))
             for place, s in enumerate(alive)}
    top = max(score.values())
    return math.exp(score[seat] - top) / sum(math.exp(x - top) for x in score.values())


class LearnedPlanBot(AlgoPlanBot):
    """Level 6 with the learned chance of coming first in four-player games."""

    def __init__(self, seed: int = 0, weights: Path = WEIGHTS) -> None:
        super().__init__(seed)
        raw = json.loads(weights.read_text())
        assert tuple(raw["features"]) == FEATURES
        self.weights = [float(x) for x in raw["weights"]]

    def worth(self, kn: Knowledge, view: AlgoView, seat: int, pair: bool) -> float | None:
        h = covers(kn)
        if h is None or pair or len(h) != 4:
            return super().worth(kn, view, seat, pair)
        cards = [sum(1 for sl in row if sl.key is None) for row in kn.rows]
        mover = next((x for x in ((seat + j) % 4 for j in range(1, 4)) if h[x] >= 0), seat)
        return learned_chance(h, cards, seat, mover, int(view["pile"]["size"]) == 0,
                              self.weights)


class PairBonusBot(AlgoPlanBot):
    """Level 6 whose pair-play model counts ``bonus`` cards of cover for each player of a
    pair still in (a player out costs its pair its turns)."""

    def __init__(self, seed: int = 0, bonus: float = 1.0) -> None:
        super().__init__(seed)
        self.bonus = bonus

    def worth(self, kn: Knowledge, view: AlgoView, seat: int, pair: bool) -> float | None:
        h = covers(kn)
        if h is None or not pair:
            return super().worth(kn, view, seat, pair)
        team = [sum(max(0.0, h[s]) + (self.bonus if h[s] >= 0 else 0.0) for s in (t, t + 2))
                for t in (0, 1)]
        alive = [h[t] >= 0 or h[t + 2] >= 0 for t in (0, 1)]
        mine = seat % 2
        if not alive[mine]:
            return 0.0
        if not alive[1 - mine]:
            return 1.0
        top = max(team)
        e = [math.exp(self.beta * (x - top)) for x in team]
        return e[mine] / sum(e)


def gen(first: int, n: int, out: str) -> None:
    cpu = time.process_time()
    states = 0
    with open(out, "w") as f:
        for i in range(first, first + n):
            bots = [GAME.make_bot("4", i * 10 + s) for s in range(4)]
            record = play_game(GAME, bots, {"players": 4}, seed=i)
            outcome = record.states[-1].outcome
            assert outcome is not None
            win = [s for s in range(4) if outcome.ranks[s] == 1]
            prev = None
            for st in record.states[:-1]:
                v = st.view(0)
                if v["turn"] == prev:
                    continue
                prev = v["turn"]
                kn = public_knowledge(v)
                h = covers(kn)
                assert h is not None
                cards = [sum(1 for sl in row if sl.key is None) for row in kn.rows]
                f.write(json.dumps({"g": i, "h": h, "k": cards, "m": v["turn"],
                                    "pile": v["pile"]["size"], "win": win}) + "\n")
                states += 1
    print(f"{n} games, {states} states, CPU {time.process_time() - cpu:.1f} s, "
          f"load {os.getloadavg()[0]:.1f}")


def _rows(paths: list[str]) -> list[tuple[Any, int, int]]:
    import numpy as np

    rows = []
    for p in paths:
        with open(p) as f:
            for line in f:
                r = json.loads(line)
                h, k, m = r["h"], r["k"], r["m"]
                order = [(m + j) % 4 for j in range(4)]
                alive = [s for s in order if h[s] >= 0]
                if len(r["win"]) != 1 or len(alive) < 2 or r["win"][0] not in alive:
                    continue
                x = np.array([features(h[s], k[s], r["pile"] == 0, place)
                              for place, s in enumerate(alive)])
                rows.append((x, alive.index(r["win"][0]), int(r["g"])))
    return rows


def _loglik(rows: list[tuple[Any, int, int]], w: Any) -> float:
    import numpy as np

    total = 0.0
    for x, y, _ in rows:
        s = x @ w
        s = s - s.max()
        total += float(s[y] - np.log(np.exp(s).sum()))
    return total / len(rows)


def fit(paths: list[str], out: str | None, without: Sequence[str] = ()) -> None:
    """Fit the weights; the features named in ``without`` are held at 0."""
    import numpy as np

    keep = [i for i, f in enumerate(FEATURES) if f not in without]
    rows = [(x[:, keep], y, g) for x, y, g in _rows(paths)]
    games = sorted({g for *_, g in rows})
    cut = games[int(len(games) * 0.8)]
    train = [r for r in rows if r[2] < cut]
    test = [r for r in rows if r[2] >= cut]
    dim = len(keep)
    w = fit_conditional_logit([(x, y) for x, y, _ in train], dim, steps=25, tol=1e-9)
    softmax = np.zeros(dim)
    softmax[keep.index(0)] = 1.0
    full = np.zeros(len(FEATURES))
    full[keep] = w
    w_all = full
    print(f"states: {len(train)} to fit (games {games[0]}..{cut - 1}), {len(test)} held out")
    print("weights:", dict(zip(FEATURES, np.round(w_all, 4).tolist())))
    print(f"held-out mean log-likelihood of the winner: learned {_loglik(test, w):.4f}, "
          f"level 6's softmax of covers {_loglik(test, softmax):.4f}, "
          f"everyone alike {_loglik(test, np.zeros(dim)):.4f}")
    if out:
        with open(out, "w") as f:
            json.dump({"features": list(FEATURES), "weights": [round(x, 6) for x in w_all],
                       "fitted_on": f"four level-4 players, games {games[0]}..{cut - 1}",
                       "command": "bench/algo_value.py gen/fit (its docstring)"},
                      f, indent=1)
            f.write("\n")


def main() -> None:
    argv = sys.argv[1:]
    if argv[0] == "gen":
        gen(int(argv[1]), int(argv[2]), argv[3])
    elif argv[0] == "fit":
        out = None
        if "--out" in argv:
            k = argv.index("--out")
            out = argv[k + 1]
            del argv[k:k + 2]
        without: list[str] = []
        while "--without" in argv:
            k = argv.index("--without")
            without.append(argv[k + 1])
            del argv[k:k + 2]
        fit(argv[1:], out, without)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()


class LookaheadBot(AlgoPlanBot):
    """Level 6 whose attack decisions look one round ahead: for each of its ``top`` likeliest
    guesses (and ``stay`` when allowed) it plays out, in ``deals`` deals drawn exactly from
    its own posterior (the same deals and pile orders for every option), the rest of its
    turn and the other players' turns with level-4 bots in every seat, up to its next turn,
    and values the position reached by level 6's model of the table's view (the end of the
    game: 1 if it came first, else 0). A sure hit is taken as level 6 takes it."""

    def __init__(self, seed: int = 0, deals: int = 6, top: int = 3) -> None:
        super().__init__(seed)
        self.deals = deals
        self.top = top

    def _attack(self, view: Any, seat: int, moves: list[str]) -> str:
        from asobiba.core.rng import Rng
        from asobiba.games.algo.bots import AlgoBot, face_down_targets
        from asobiba.games.algo.infer import infer
        from asobiba.games.algo.plan import SHARE, SURE, _text, named_evidence
        from asobiba.games.algo.search import determinize, sample_deal
        from asobiba.games.algo.views import algo_view

        v = algo_view(view)
        kn = Knowledge.from_view(v)
        own = named_evidence(v, kn) if self.evidence else kn
        inf = infer(own)
        ranked = sorted(
            ((prob, t, p, num, int(s["id"])) for t, p, s in face_down_targets(v, seat)
             for num, prob in inf.numbers(int(s["id"])).items()),
            key=lambda g: (-g[0], g[1], g[2], g[3]))
        if ranked[0][0] >= SURE:
            return _text(ranked[0])
        options = [_text(g) for g in ranked[:self.top] if g[0] >= SHARE * ranked[0][0]]
        if "stay" in moves:
            options.append("stay")
        if len(options) == 1:
            return options[0]
        pair = v["rules"]["mode"] == "pair"
        n = len(v["rows"])
        totals = dict.fromkeys(options, 0.0)
        truth = infer(kn)   # deals from what the seat has seen (evidence only ranks guesses)
        for d in range(self.deals):
            rng = Rng(self.rng.below(2 ** 31), "lookahead")
            deal = sample_deal(kn, rng, truth)
            pile_seed = rng.below(2 ** 31)
            base = determinize(v, self.options, deal, Rng(pile_seed, "pile"))
            for opt in options:
                st = base.play(opt, seat)
                bots = [AlgoBot(4, 1000 * d + x) for x in range(n)]
                for x in range(n):
                    bots[x].reset(x, self.options)
                left = False
                while not st.is_over:
                    mover = st.to_move
                    assert mover is not None
                    if mover != seat:
                        left = True
                    elif left:
                        break
                    st = st.play(bots[mover].choose(st.view(mover)), mover)
                if st.is_over:
                    oc = st.outcome
                    assert oc is not None
                    team = [seat, (seat + 2) % 4] if pair else [seat]
                    totals[opt] += float(any(oc.ranks[x] == 1 for x in team)
                                         and sum(r == 1 for r in oc.ranks) <= len(team))
                else:
                    w = self.worth(public_knowledge(st.view(seat)), st.view(seat), seat, pair)
                    totals[opt] += 0.0 if w is None else w
        return max(options, key=lambda o: (totals[o], -options.index(o)))
