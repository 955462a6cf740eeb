"""What Algo brings to the platform: its move-feedback view evaluator (exact deduction from
the mover's view) and scale, the tutorial (``tutorial.json``), the two-seat form the ladder
plays, pair-play teams and the daily tsume-algo puzzle (hooks: ``asobiba.core.hooks``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...core import Daily, GameProgression, Puzzle, Thresholds
from ...core.jsontypes import JSONMapping, JSONObject
from ...core.views import own_seat
from .views import algo_view

if TYPE_CHECKING:
    from .bots import AlgoBot


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

    def values_from_views(self, views: Sequence[JSONMapping],
                          played: str | None = None) -> dict[str, float]:
        from . import bots
        from .cards import COLOUR_LETTERS
        from .infer import Knowledge, SlotInfo, infer

        view = algo_view(views[-1])
        seat = own_seat(view)
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
                    if pl is None or "number" not in pl:
                        raise ValueError("no card of this seat is being placed")
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
                seen = bots.safe_infer(kn)
                out[m] = 0.0 if seen is None else max(
                    (pr for t, _, ts in bots.face_down_targets(view, partner)
                     for pr in seen.numbers(ts["id"]).values()), default=0.0)
        if phase in ("use", "place", "show") and out:
            top = max(out.values())  # a choice among own cards: centred on the best
            out = {m: v - top for m, v in out.items()}
        return out


def _AlgoBot4() -> AlgoBot:  # noqa: N802 - a constructor
    from .bots import AlgoBot

    return AlgoBot(4)


def _up(view: JSONMapping, row: int) -> int:
    """How many cards of row ``row`` lie face up."""
    view = algo_view(view)
    return sum(1 for card in view["rows"][row] if card["up"])


def _teams(options: JSONMapping, seats: int) -> list[list[int]] | None:
    """Pair play seats partners opposite (seed)."""
    return [[0, 2], [1, 3]] if options.get("mode") == "pair" else None


WEEKDAY_TSUME_LEVEL = (1, 1, 2, 2, 3, 3, 4)
"""The tsume-algo level by weekday (Monday first): harder through the week."""


def _tsume(weekday: int, seed: int) -> Puzzle:
    from .tsume import generate

    puzzle: Puzzle = generate(WEEKDAY_TSUME_LEVEL[weekday], seed)
    return puzzle


def _seat_analysis(options: JSONMapping, views: Sequence[JSONMapping]) -> JSONObject:
    """The analysis board's reading of one seat's views (``seat_analysis.py``)."""
    from .seat_analysis import seat_analysis

    return seat_analysis(options, views)


PROGRESSION = GameProgression(
    seat_analysis=_seat_analysis,
    evaluator=lambda options: AlgoEvaluator(),
    # values in cards (P(hit)·gain − P(miss)·cost, exposures): one card is a whole enemy card
    # turned up, so a sure hit against one enemy (+1) is 88 % and a blind guess (≈ −0.2) 40 %;
    # halving a hit chance of ½ is an inaccuracy. Justified, not fitted: these are values of
    # one decision, not of a position (docs/progression.md)
    thresholds=lambda options: Thresholds(scale=0.5),
    tutorial="tutorial.json",
    tutorial_functions={"up": _up},
    ladder_options={"players": 2},
    # the ladder is played two-player, where level 5 is level 4's equal (0.513 over 400
    # games) and level 6 the strongest offered level (0.578 ± 0.048 over level 4, 0.635
    # over level 5, 0.620 over level 3): so the top tier (FINAL) is level 6, the one step
    # above level 4 a player can feel (docs/benchmarks.md, "Algo's two-player ladder")
    ladder_levels=("1", "2", "2", "3", "4", "4", "6"),
    teams=_teams,
    daily=Daily("tsume", puzzle=_tsume, name={"en": "Tsume-algo", "ja": "詰めアルゴ"}),
)
