"""Feedback evaluators for Memory Matrix, Algo, Patapata and FlipFlop 5×5.

Memory Matrix, Algo and Patapata hide something from the mover (colours under white pieces,
the numbers of other rows, the dice still to be rolled), so their evaluators are *view
evaluators*: :meth:`values_from_views` receives the mover's views from the start of the game
to the position before the move — never a state — and so can only judge by what the mover
knew. FlipFlop 5×5 has perfect information; its evaluator reads the state like the others in
:mod:`.feedback`. Every evaluator here is deterministic: fixed depths and fixed samples, no
clock, no seed of the game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..core import Rng, State

# ---- Memory Matrix ------------------------------------------------------------------------


class MemoryMatrixEvaluator:
    """A perfect-recall seat: every colour it saw go under a white piece is remembered
    (``memory.Memory`` with no forgetting, fed the seat's views from ply 0), which on any
    game watched from the start determines the whole position. Two seats: each move's child
    searched ``depth``−1 plies by paranoid alpha-beta with a full window (exact values),
    to the end of the game from ``endgame`` empty cells. More seats: each move followed by
    one round of greedy replies (every colour for itself), as the level-3 bot does.
    Values: pieces face up ahead of the best rival (a corner counts double); a won final
    position scores +1000 (``bots.TERMINAL``)."""

    sees = "views"

    def __init__(self, options: Mapping[str, Any], depth: int = 3, endgame: int = 4) -> None:
        from ..games.memory_matrix.bots import Weights
        from ..games.memory_matrix.game import config_from_raw

        self.cfg = config_from_raw(options)
        self.depth = depth
        self.endgame = endgame
        self.weights = Weights(hidden=0.0, corner=1.0)

    def position(self, views: Sequence[Mapping[str, Any]]) -> Any:
        """The position as the seat of the last view remembers it (views only)."""
        from ..games.memory_matrix.memory import Memory, determinize

        if not views or int(views[0]["ply"]) != 0:
            raise ValueError("Memory Matrix feedback needs the seat's views from the start")
        memory = Memory(forget=0.0)
        for view in views:
            memory.observe(view)
        return determinize(self.cfg, views[-1], memory.known, None)

    def values_from_views(self, views: Sequence[Mapping[str, Any]],
                          played: str | None = None) -> dict[str, float]:
        from ..games.memory_matrix import rules
        from ..games.memory_matrix.bots import look_ahead, paranoid

        cfg, w = self.cfg, self.weights
        pos = self.position(views)
        seat = int(views[-1]["seat"])
        geo = cfg.geometry
        empties = (geo.valid & ~pos.occ).bit_count()
        depth = empties + 1 if empties <= self.endgame else self.depth
        inf = float("inf")
        out = {}
        for move in rules.legal_moves(cfg, pos):
            child = rules.apply(cfg, pos, move)[0]
            if cfg.players == 2:
                value = paranoid(cfg, child, depth - 1, -inf, inf, seat, w)
            else:
                value = look_ahead(cfg, child, seat, cfg.colours - 1, w, w)
            text = "pass" if move == rules.PASS else \
                geo.name(move >> 1) + ("w" if move & 1 else "")
            out[text] = value
        return out


# ---- Algo ---------------------------------------------------------------------------------


class AlgoEvaluator:
    """Exact deduction from the mover's view (``infer``: every deal consistent with what
    the seat has seen, equally likely). Values are in *cards*:

    - ``attack X=v``: P(hit)·gain − P(miss)·cost, where P(hit) is the exact probability
      that the card is v, gain is one enemy card turned up (shared among the enemies still
      in: 1/enemies), and cost is what a miss gives away — how much closer the table comes
      to reading the mover's own row when its attack card goes face up instead of staying
      hidden (the level-4 bot's ``exposure`` measure, 0–1 card). ``stay`` is 0.
    - ``use N`` / ``place N``: minus the exposure of the own row afterwards.
    - ``show N``: the partner's best hit probability after seeing that card.
    - These three choices among own cards are centred on the best one (0), so what counts
      is the difference: exposing half a card more than necessary is a mistake.
    - Anything else (``pass!``, the joker layout): 0 for every choice (not judged).
    """

    sees = "views"

    def values_from_views(self, views: Sequence[Mapping[str, Any]],
                          played: str | None = None) -> dict[str, float]:
        from ..games.algo import bots
        from ..games.algo.cards import COLOUR_LETTERS
        from ..games.algo.infer import Knowledge, SlotInfo, infer

        view = views[-1]
        seat = int(view["seat"])
        moves = [str(m) for m in view["legal_moves"]]
        phase = view["phase"]
        c = int(view["rules"]["colours"])
        out = dict.fromkeys(moves, 0.0)
        if phase == "attack":
            inf = infer(Knowledge.from_view(view))
            gain = 1.0 / max(1, len(bots.enemies_in(view, seat)))
            cost = _AlgoBot4().miss_cost(view, seat)
            letters = {f"{chr(65 + t)}{p + 1}": s for t in range(len(view["rows"]))
                       for p, s in enumerate(view["rows"][t])}
            for m in moves:
                if not m.startswith("attack "):
                    continue
                target, number = m[len("attack "):].split("=")
                slot = letters[target]
                p = inf.numbers(int(slot["id"])).get(int(number), 0.0) \
                    if int(slot["id"]) in inf.counts else 0.0
                out[m] = p * gain - (1.0 - p) * cost
        elif phase in ("use", "place"):
            for m in moves:
                pos = int(m.split()[1]) - 1
                if phase == "use":
                    s = view["rows"][seat][pos]
                    kn = bots.public_knowledge(view, reveal={s["id"]: bots.known_key(s, c)})
                else:
                    pl = view["placing"]
                    key = pl["number"] * c + COLOUR_LETTERS.index(pl["colour"])
                    kn = bots.public_knowledge(view, insert=(seat, pos, key, bool(pl["up"])))
                out[m] = -bots.exposure(view, seat, kn)
        elif phase == "show":
            partner = (seat + 2) % 4
            shown = {e["id"] for e in view["log"] if e["event"] == "show" and e["seat"] == seat}
            for m in moves:
                pos = int(m.split()[1]) - 1
                s = view["rows"][seat][pos]
                reveal = {x["id"]: bots.known_key(x, c) for x in view["rows"][seat]
                          if x["id"] in shown or x["id"] == s["id"]}
                kn = bots.public_knowledge(view, reveal=reveal)
                kn.rows[partner] = [SlotInfo(x.sid, x.colour, bots.slot_key(vx, c), x.fails)
                                    for x, vx in zip(kn.rows[partner], view["rows"][partner],
                                                     strict=True)]
                inf = bots.safe_infer(kn)
                out[m] = 0.0 if inf is None else max(
                    (pr for t, _, ts in bots.face_down_targets(view, partner)
                     for pr in inf.numbers(ts["id"]).values()), default=0.0)
        if phase in ("use", "place", "show") and out:
            top = max(out.values())  # a choice among own cards: centred on the best
            out = {m: v - top for m, v in out.items()}
        return out


def _AlgoBot4() -> Any:  # noqa: N802 - a constructor
    from ..games.algo.bots import AlgoBot

    return AlgoBot(4)


# ---- Patapata -----------------------------------------------------------------------------


class PatapataEvaluator:
    """The optimiser's beam search (width ``width``, rank key ``hints.KEY``) over the rest
    of the course from the sheet each move leaves. What the mover cannot know — the dice
    still to be rolled on a dice course — is averaged over ``samples`` fixed futures drawn
    from a generator seeded by the task number only (never the game's seed), the same
    futures for every move compared (common random numbers): the value is the expected
    final score. A fixed-row course is printed on the public sheet, so one future.

    Values are centred on the best move (best = 0, others minus the points they cost), so
    the winning-chance curve reads a drop of points the same way at any score.

    There are hundreds of ways to clear a task; only the ``candidates`` best by the rank
    key, ``pass`` and the played move get a search (the best is the best of those).
    Step-by-step moves: a ``write`` is worth the best clear that contains every mark written
    for the task so far plus this one; ``switch`` and ``rotate`` change nothing and are worth
    the best clear still open."""

    sees = "views"

    def __init__(self, width: int = 8, samples: int = 2, candidates: int = 5) -> None:
        self.width = width
        self.samples = samples
        self.candidates = candidates

    def futures(self, view: Mapping[str, Any], index: int) -> list[list[str]]:
        from ..games.patapata.tasks import COURSE_LENGTH, TASK_SHEET

        mode = view["course"]["mode"]
        rest = range(index + 1, COURSE_LENGTH)
        if mode != "dice":
            return [[TASK_SHEET[int(mode) - 1][i] for i in rest]]
        rng = Rng(0, "feedback", "patapata", index)
        return [[TASK_SHEET[rng.below(3)][i] for i in rest] for _ in range(self.samples)]

    def values_from_views(self, views: Sequence[Mapping[str, Any]],
                          played: str | None = None) -> dict[str, float]:
        from ..games.patapata.bots import read_view
        from ..games.patapata.hints import KEY
        from ..games.patapata.notation import move_text, parse_move
        from ..games.patapata.optimiser import beam_search
        from ..games.patapata.scoring import TABLES
        from ..games.patapata.sheet import clears

        view = views[-1]
        sheet = view["sheets"][view["seat"]]
        marks, passes, index, task = read_view(view)
        table = TABLES[view.get("scores", "standard")]
        futures = self.futures(view, index)
        pending = _cell_bits(sheet["pending"])
        base = (marks[0] & ~pending, marks[1] & ~pending, marks[2] & ~pending)
        written = (marks[0] & pending, marks[1] & pending, marks[2] & pending)
        cache: dict[Any, float] = {}

        def expected(node: Any) -> float:
            if node not in cache:
                cache[node] = sum(beam_search(f, node, self.width, table, KEY).total
                                  for f in futures) / len(futures)
            return cache[node]

        ways = {}  # writes → the sheet after that clear
        for way in clears(task, base):
            w = way.writes
            ways[w] = ((base[0] | w[0], base[1] | w[1], base[2] | w[2]), passes)

        def best_of(need: tuple[int, int, int]) -> tuple[float, str]:
            """The best clear whose writes hold ``need``: (expected score, its move)."""
            open_ = [(w, n) for w, n in ways.items()
                     if all(w[m] & need[m] == need[m] for m in range(3))]
            open_.sort(key=lambda wn: KEY(wn[1], table), reverse=True)
            return max(((expected(n), move_text(("clear", w)))
                        for w, n in open_[: self.candidates]), default=(float("-inf"), ""))

        out: dict[str, float] = {}
        if not pending:
            ranked = sorted(ways.items(), key=lambda kv: KEY(kv[1], table), reverse=True)
            for w, node in ranked[: self.candidates]:
                out[move_text(("clear", w))] = expected(node)
            out["pass"] = expected((base, passes + 1))
        moves = [str(m) for m in view["legal_moves"]]
        if played is not None and played in moves and played not in out:
            move = parse_move(played)
            if move[0] == "clear":
                w = move[1]
                out[played] = expected(((base[0] | w[0], base[1] | w[1], base[2] | w[2]),
                                        passes))
            elif move[0] == "write":
                need = list(written)
                need[move[2]] |= 1 << move[1]
                out[played] = best_of((need[0], need[1], need[2]))[0]
            elif move[0] in ("switch", "rotate"):
                out[played] = best_of(written)[0] if pending else max(out.values())
        if pending:  # mid-task: the best is the best way to finish the clear begun
            value, text = best_of(written)
            if text:
                out.setdefault(text, value)
        top = max(out.values())
        return {m: v - top for m, v in out.items()}


def _cell_bits(names: Sequence[str]) -> int:
    from ..games.patapata.geometry import parse_cell

    bits = 0
    for name in names:
        bits |= 1 << parse_cell(name)
    return bits


# ---- FlipFlop 5×5 -------------------------------------------------------------------------


class FlipFlop5Evaluator:
    """FlipFlop's own alpha-beta (``search.Searcher``, the default weights, no noise) run
    to a fixed ``depth`` below each legal move — no clock; one transposition table per
    position, shared by its moves in a fixed order, so the same position always gets the
    same values. Repetitions in the game's
    history count as the game counts them. Values: the evaluation in its own units
    (a piece is 120); a forced win found ``p`` plies ahead is ±(100 000 − p)."""

    def __init__(self, depth: int = 3) -> None:
        self.depth = depth

    def move_values(self, state: State) -> dict[str, float]:
        from ..games.flipflop.search import WIN, Searcher

        out: dict[str, float] = {}
        seat = state.to_move
        searcher = Searcher(state.n)  # type: ignore[attr-defined]
        for mv in state.legal_moves():
            child = state.child(mv)
            outcome = child.outcome
            if outcome is not None:
                value = 0.0 if outcome.is_draw else (WIN if seat in outcome.winners else -WIN)
            else:
                counts = Counter(child.history)  # type: ignore[attr-defined]
                counts[child.key] += 1  # type: ignore[attr-defined]
                res = searcher.search(child.tuple4(), self.depth, None,  # type: ignore
                                      counts)
                value = -float(res.value)
            out[state.move_text(mv)] = value
        return out
