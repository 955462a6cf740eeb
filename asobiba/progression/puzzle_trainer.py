"""The puzzle trainer (docs/puzzles.md): attempts checked on the server, Glicko-2 ratings for
the player and for the puzzle (lichess-style: a rated game of the player against the puzzle,
pool ``<set>:puzzle``), a daily puzzle, streaks, and the games' answered puzzles
(tsume-algo) in the same trainer.

Fair play (docs/fair-play.md): the solution never leaves the server before the attempt ends;
only a player's first attempt at a puzzle is rated (``prog_puzzle_seen``'s key decides it,
also when two requests race); a move is accepted once (the attempt's ``step`` is compared and
set in one UPDATE); starting another puzzle fails the open rated attempt (no abandoning a
puzzle to dodge the loss)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, ClassVar, cast

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

if TYPE_CHECKING:
    from sqlalchemy.engine import CursorResult

from ..core import Outcome, State, Why, derive_seed
from ..core.hooks import PuzzleJudge
from ..core.jsontypes import JSONObject
from ..games import available
from ..games import get as get_game
from ..puzzles.mine import KINDS, Puzzle, judge_for, load_set, player_seat
from ..tables import PUZZLE_ATTEMPTS, PUZZLE_SEEN, PlayerRow, RatingRow, utcnow
from . import accounts, ratings
from .errors import ProgressionError

MODES = ("rated", "daily", "streak")
PUZZLE_DEVIATION = 350.0
"""A new puzzle's Glicko-2 deviation (its rating starts at the set's estimate, which is a
guess: wide, but narrower than a new player's 500)."""
TSUME_SUFFIX = "-tsume"
TSUME_LEVELS = 7
MAX_STEPS = 48
"""At most this many step-by-step moves between two moves of a line (Patapata: writes, flaps
and turns towards a clear); more are refused (``too_many_steps``)."""


class PuzzleError(ProgressionError):
    """A trainer action refused: ``refusal`` is the code the page translates (also the
    error's ``why``), ``details`` its arguments, ``http`` the status."""

    code: ClassVar[str] = "puzzle_refused"

    def __init__(self, why: str, message: str, http: int = 400, **details: object) -> None:
        super().__init__(message, why=Why(why, {k: str(v) for k, v in details.items()}, message))
        self.refusal, self.http, self.details = why, http, details


def pool(puzzle_set: str) -> str:
    """The rating pool of a set: ``<game>:puzzle`` for a game's main set (shared with the
    game's daily puzzles), ``<set>:puzzle`` otherwise."""
    if puzzle_set.endswith(TSUME_SUFFIX):
        return puzzle_set[: -len(TSUME_SUFFIX)] + ":puzzle"
    return f"{puzzle_set}:puzzle"


def tsume_games() -> list[str]:
    out = []
    for gid in available():
        hook = get_game(gid).progression().daily
        if hook is not None and hook.kind == "tsume" and hook.puzzle is not None:
            out.append(gid)
    return out


def sets() -> list[JSONObject]:
    """Every set the trainer serves: the mined ones and the games' answered puzzles."""
    out: list[JSONObject] = []
    for name, (gid, options) in KINDS.items():
        n = len(load_set(name))
        if n:
            out.append({"set": name, "game": gid, "options": dict(options), "count": n,
                        "kind": "line"})
    for gid in tsume_games():
        out.append({"set": gid + TSUME_SUFFIX, "game": gid, "options": {}, "count": None,
                    "kind": "answer"})
    return out


def _set_puzzles(name: str) -> dict[str, Puzzle]:
    if name not in KINDS:
        raise PuzzleError("unknown_set", f"no puzzle set {name!r}", 404, set=name)
    return {p.id: p for p in load_set(name)}


def daily_puzzle(day: date) -> tuple[str, Puzzle]:
    """The day's puzzle (UTC), the same for everyone: the sets take turns by day, the puzzle
    within the set is drawn from the date."""
    names = [n for n in KINDS if load_set(n)]
    if not names:
        raise PuzzleError("no_puzzles", "no puzzle set is installed", 404)
    name = names[day.toordinal() % len(names)]
    puzzles = load_set(name)
    return name, puzzles[derive_seed(day.isoformat(), "daily-puzzle", name) % len(puzzles)]


def _rows(result: object) -> int:
    """Rows an UPDATE changed."""
    return int(cast("CursorResult[tuple[int]]", result).rowcount)


# ---- ratings ------------------------------------------------------------------------------

def _rating(session: Session, player_id: int, pool_name: str) -> float:
    row = session.get(RatingRow, (player_id, pool_name))
    return 1500.0 if row is None else row.rating


def _puzzle_rows(session: Session, puzzle_set: str) -> dict[str, float]:
    """Current ratings of the set's puzzles that have been tried (id → rating)."""
    prefix = f"puzzle:{puzzle_set}:"
    q = (select(PlayerRow.level, RatingRow.rating)
         .join(RatingRow, RatingRow.player_id == PlayerRow.id)
         .where(PlayerRow.name.like(prefix + "%"), RatingRow.pool == pool(puzzle_set)))
    return {str(level): float(r) for level, r in session.execute(q)}


def _puzzle_player(session: Session, puzzle_set: str, puzzle_id: str, initial: float) -> int:
    p = accounts.puzzle_player(session, puzzle_set, puzzle_id)
    if session.get(RatingRow, (p.id, pool(puzzle_set))) is None:
        session.add(RatingRow(player_id=p.id, pool=pool(puzzle_set), system=ratings.GLICKO2,
                              rating=initial, deviation=PUZZLE_DEVIATION, volatility=0.09,
                              provisional=True, games=0))
        session.flush()
    return p.id


# ---- the trainer --------------------------------------------------------------------------

@dataclass
class _Attempt:
    id: int
    player_id: int
    puzzle_set: str
    puzzle_id: str
    mode: str
    rated: bool
    status: str
    step: int
    run: int | None
    pending: str = ""

    @property
    def steps(self) -> list[str]:
        return self.pending.split("\n") if self.pending else []


_JUDGES: dict[str, PuzzleJudge] = {}


def _judge(pz: Puzzle) -> PuzzleJudge:
    """The puzzle's game judge (one per game and options, made on first use)."""
    key = pz.game + json.dumps(dict(pz.options), sort_keys=True)
    if key not in _JUDGES:
        _JUDGES[key] = judge_for(pz.game, pz.options)
    return _JUDGES[key]


def _view(pz: Puzzle, state: State, seat: int) -> JSONObject:
    """What the solver sees of a position: the seat's view, less what would give the answer
    away when the game's judge says so (``public_view``: Patapata's hint)."""
    public = getattr(_judge(pz), "public_view", None)
    if public is not None:
        return cast("JSONObject", public(state, seat))
    return cast("JSONObject", state.view(seat))


def _attempt(session: Session, attempt_id: int, player_id: int) -> _Attempt:
    row = session.execute(select(PUZZLE_ATTEMPTS).where(PUZZLE_ATTEMPTS.c.id == attempt_id)
                          ).mappings().first()
    if row is None or row["player_id"] != player_id:  # another player's: not yours to see
        raise PuzzleError("no_attempt", f"no attempt {attempt_id}", 404, attempt=attempt_id)
    return _Attempt(row["id"], row["player_id"], row["puzzle_set"], row["puzzle_id"],
                    row["mode"], bool(row["rated"]), row["status"], row["step"], row["run"],
                    str(row["pending"] or ""))


def _seen(session: Session, player_id: int, puzzle_set: str) -> set[str]:
    q = select(PUZZLE_SEEN.c.puzzle_id).where(PUZZLE_SEEN.c.player_id == player_id,
                                              PUZZLE_SEEN.c.puzzle_set == puzzle_set)
    return {str(x) for x in session.scalars(q)}


def _fail_open(session: Session, player_id: int) -> list[JSONObject]:
    """Starting a new puzzle ends the player's open attempts: a rated one as a loss."""
    rows = session.execute(select(PUZZLE_ATTEMPTS.c.id).where(
        PUZZLE_ATTEMPTS.c.player_id == player_id, PUZZLE_ATTEMPTS.c.status == "open")).all()
    return [_finish(session, _attempt(session, r[0], player_id), solved=False) for r in rows]


def _choose(session: Session, player_id: int, puzzle_set: str, mode: str,
            run_solved: int) -> Puzzle:
    puzzles = list(_set_puzzles(puzzle_set).values())
    seen = _seen(session, player_id, puzzle_set)
    fresh = [p for p in puzzles if p.id not in seen] or puzzles
    current = _puzzle_rows(session, puzzle_set)

    def rating(p: Puzzle) -> float:
        return current.get(p.id, float(p.rating))

    if mode == "streak":  # easy first, harder with every solve
        target = 900.0 + 60.0 * run_solved
    else:
        target = _rating(session, player_id, pool(puzzle_set))
    rng = random.Random()
    fresh.sort(key=lambda p: abs(rating(p) - target) + rng.uniform(0, 60))
    return fresh[0]


def start(session: Session, player_id: int, puzzle_set: str, mode: str, today: date,
          run: int | None = None) -> JSONObject:
    """Open an attempt: the position and what the player may know, never the solution."""
    if mode not in MODES:
        raise PuzzleError("bad_mode", f"mode must be one of {', '.join(MODES)}", mode=mode)
    closed = _fail_open(session, player_id)
    if puzzle_set.endswith(TSUME_SUFFIX):
        return _start_tsume(session, player_id, puzzle_set, mode, closed)
    run_solved = 0
    if mode == "daily":
        puzzle_set, pz = daily_puzzle(today)
    else:
        if mode == "streak" and run is not None:
            run_solved = _run_solved(session, player_id, run)
            if run_solved < 0:
                raise PuzzleError("streak_over", "this streak has ended", run=run)
        pz = _choose(session, player_id, puzzle_set, mode, run_solved)
    return _open(session, player_id, puzzle_set, pz.id, mode, run, closed, _public(pz))


def _open(session: Session, player_id: int, puzzle_set: str, puzzle_id: str, mode: str,
          run: int | None, closed: list[JSONObject], public: JSONObject) -> JSONObject:
    made = cast("CursorResult[tuple[int]]", session.execute(insert(PUZZLE_ATTEMPTS).values(
        player_id=player_id, puzzle_set=puzzle_set, puzzle_id=puzzle_id, mode=mode,
        rated=False, status="open", step=0, run=run, started=utcnow(), pending="")))
    attempt_id = int(made.inserted_primary_key[0])  # type: ignore[index]
    rated = False
    try:  # the first attempt ever at this puzzle: the only one that can be rated
        with session.begin_nested():
            session.execute(insert(PUZZLE_SEEN).values(player_id=player_id,
                                                       puzzle_set=puzzle_set,
                                                       puzzle_id=puzzle_id,
                                                       attempt_id=attempt_id))
        rated = mode in ("rated", "daily")
    except IntegrityError:
        rated = False
    if mode == "streak" and run is None:
        run = attempt_id
    session.execute(update(PUZZLE_ATTEMPTS).where(PUZZLE_ATTEMPTS.c.id == attempt_id)
                    .values(rated=rated, run=run))
    pool_name = pool(puzzle_set)
    return {"attempt": attempt_id, "set": puzzle_set, "mode": mode, "rated": rated,
            "run": run, "streak": _run_solved(session, player_id, run) if run else None,
            "rating": _rating(session, player_id, pool_name), "closed": closed,
            "puzzle": public}


def _public(pz: Puzzle) -> JSONObject:
    state = pz.position()
    seat = player_seat(state)
    return {**pz.public(), "seat": seat, "view": _view(pz, state, seat)}


def _run_state(session: Session, player_id: int, run: int) -> tuple[int, bool]:
    """Solves in a streak run so far, and whether it has ended (a miss)."""
    rows = session.execute(select(PUZZLE_ATTEMPTS.c.status).where(
        PUZZLE_ATTEMPTS.c.player_id == player_id, PUZZLE_ATTEMPTS.c.run == run)).all()
    if not rows:
        raise PuzzleError("no_run", f"no streak {run}", 404, run=run)
    return sum(r[0] == "solved" for r in rows), any(r[0] == "failed" for r in rows)


def _run_solved(session: Session, player_id: int, run: int) -> int:
    """Solves in a streak run so far, or −1 once it has a miss."""
    solved, over = _run_state(session, player_id, run)
    return -1 if over else solved


def best_streak(session: Session, player_id: int) -> int:
    rows = session.execute(select(PUZZLE_ATTEMPTS.c.run, PUZZLE_ATTEMPTS.c.status,
                                  func.count()).where(
        PUZZLE_ATTEMPTS.c.player_id == player_id, PUZZLE_ATTEMPTS.c.mode == "streak",
        PUZZLE_ATTEMPTS.c.status == "solved").group_by(PUZZLE_ATTEMPTS.c.run,
                                                       PUZZLE_ATTEMPTS.c.status)).all()
    return max((int(r[2]) for r in rows), default=0)


def move(session: Session, player_id: int, attempt_id: int, text: str) -> JSONObject:
    """The player's next move of the line: right → the engine's replies follow (and the
    attempt ends solved after the last move); wrong → the attempt ends failed. The line is
    shown only once the attempt has ended.

    A game whose judge has ``step`` (Patapata) may also be played step by step: each step
    (a write, a flap, a turn) is kept with the attempt while the judge says it is on the way
    to the line's move (``more``), and the steps that complete it count as that move."""
    a = _attempt(session, attempt_id, player_id)
    if a.status != "open":
        raise PuzzleError("attempt_over", "this attempt has ended", 409, attempt=attempt_id)
    if a.puzzle_set.endswith(TSUME_SUFFIX):
        raise PuzzleError("answer_puzzle", "this puzzle is answered, not played",
                          attempt=attempt_id)
    pz = _set_puzzles(a.puzzle_set)[a.puzzle_id]
    state = pz.position()
    player = player_seat(state)
    for mv in pz.line[: a.step]:
        state = state.play(mv)
    base = state
    for mv in a.steps:
        state = state.play(mv)
    if state.to_move != player:  # pragma: no cover - steps always stop on the player's turn
        raise PuzzleError("attempt_over", "not your turn", 409)
    try:
        mine = state.move_text(state.parse(text, player), player)
    except Exception:  # noqa: BLE001 - malformed or illegal: the client's error, nothing changes
        raise PuzzleError("illegal_move", f"{text!r} is not a legal move here", move=text
                          ) from None
    if mine not in {state.move_text(m, player) for m in state.legal_moves(player)}:
        raise PuzzleError("illegal_move", f"{text!r} is not a legal move here", move=text)
    want = pz.line[a.step]
    right = mine == want and not a.steps
    stepper = getattr(_judge(pz), "step", None)
    if not right and stepper is not None:
        said = stepper(base, [*a.steps, mine], want)
        if said == "more":
            return _more(session, a, pz, base, mine, player)
        right = said == "right"
    step = a.step + 1
    replies: list[str] = []
    if right:
        state = base.play(want)
        while step < len(pz.line) and state.to_move != player:
            replies.append(pz.line[step])
            state = state.play(pz.line[step])
            step += 1
    # compare-and-set: one request per step wins (a double submit changes nothing twice)
    done = not right or step >= len(pz.line)
    claimed = _rows(session.execute(update(PUZZLE_ATTEMPTS).where(
        PUZZLE_ATTEMPTS.c.id == a.id, PUZZLE_ATTEMPTS.c.status == "open",
        PUZZLE_ATTEMPTS.c.step == a.step, func.coalesce(PUZZLE_ATTEMPTS.c.pending, "") == a.pending
    ).values(step=step, pending="")))
    if claimed != 1:
        raise PuzzleError("attempt_busy", "this move was already answered", 409,
                          attempt=attempt_id)
    out: JSONObject = {"correct": right, "replies": replies, "done": done,
                       "view": _view(pz, state, player) if right else None}
    if done:
        a.step = step
        out.update(_finish(session, a, solved=right, pz=pz))
    return out


def _more(session: Session, a: _Attempt, pz: Puzzle, base: State, mine: str,
          player: int) -> JSONObject:
    """A step on the way to the line's move: kept with the attempt (compare-and-set on the
    steps so far, like the line's step), the attempt stays open."""
    steps = [*a.steps, mine]
    if len(steps) > MAX_STEPS:
        raise PuzzleError("too_many_steps", f"at most {MAX_STEPS} steps towards one move",
                          limit=MAX_STEPS)
    claimed = _rows(session.execute(update(PUZZLE_ATTEMPTS).where(
        PUZZLE_ATTEMPTS.c.id == a.id, PUZZLE_ATTEMPTS.c.status == "open",
        PUZZLE_ATTEMPTS.c.step == a.step, func.coalesce(PUZZLE_ATTEMPTS.c.pending, "") == a.pending
    ).values(pending="\n".join(steps))))
    if claimed != 1:
        raise PuzzleError("attempt_busy", "this move was already answered", 409,
                          attempt=a.id)
    state = base
    for mv in steps:
        state = state.play(mv)
    return {"correct": True, "more": True, "replies": [], "done": False,
            "view": _view(pz, state, player)}


def _finish(session: Session, a: _Attempt, solved: bool, pz: Puzzle | None = None,
            initial: float | None = None) -> JSONObject:
    """End an attempt (once: the status moves from open in one UPDATE) and rate it."""
    ended = _rows(session.execute(update(PUZZLE_ATTEMPTS).where(
        PUZZLE_ATTEMPTS.c.id == a.id, PUZZLE_ATTEMPTS.c.status == "open").values(
        status="solved" if solved else "failed", finished=utcnow())))
    if ended != 1:
        raise PuzzleError("attempt_busy", "this attempt was already ended", 409, attempt=a.id)
    out: JSONObject = {"attempt": a.id, "solved": solved, "rated": a.rated}
    if pz is None and not a.puzzle_set.endswith(TSUME_SUFFIX):
        pz = _set_puzzles(a.puzzle_set).get(a.puzzle_id)
    if pz is not None:
        out.update({"line": list(pz.line), "themes": list(pz.themes), "puzzle_id": pz.id})
        initial = float(pz.rating)
    if a.rated:
        pool_name = pool(a.puzzle_set)
        pid = _puzzle_player(session, a.puzzle_set, a.puzzle_id, initial or 1500.0)
        res = ratings.record_result(
            session, a.puzzle_set.split(TSUME_SUFFIX)[0] if pz is None else pz.game,
            [a.player_id, pid],
            Outcome((1.0, 0.0) if solved else (0.0, 1.0), (1, 2) if solved else (2, 1),
                    "puzzle solved" if solved else "puzzle failed"),
            context="puzzle", pool=(pool_name, ratings.GLICKO2))
        me, it = res.changes[0], res.changes[1]
        session.execute(update(PUZZLE_ATTEMPTS).where(PUZZLE_ATTEMPTS.c.id == a.id).values(
            rating_before=me.before, rating_after=me.after, puzzle_before=it.before,
            puzzle_after=it.after))
        out["rating"] = {"pool": pool_name, "before": me.before, "after": me.after,
                         "puzzle_before": it.before, "puzzle_after": it.after}
    if a.run is not None:
        n, over = _run_state(session, a.player_id, a.run)
        out["streak"] = {"run": a.run, "solved": n, "over": over,
                         "best": best_streak(session, a.player_id)}
    return out


# ---- answered puzzles (tsume-algo) --------------------------------------------------------

def _tsume(puzzle_set: str, puzzle_id: str) -> object:
    gid = puzzle_set[: -len(TSUME_SUFFIX)]
    hook = get_game(gid).progression().daily
    if hook is None or hook.puzzle is None or gid not in tsume_games():
        raise PuzzleError("unknown_set", f"no puzzle set {puzzle_set!r}", 404, set=puzzle_set)
    level, seed = (int(x) for x in puzzle_id.split("-"))
    return hook.puzzle(level, seed)


def _start_tsume(session: Session, player_id: int, puzzle_set: str, mode: str,
                 closed: list[JSONObject]) -> JSONObject:
    if mode == "daily":
        raise PuzzleError("bad_mode", "answered puzzles have their own daily page", mode=mode)
    _tsume(puzzle_set, "0-0")  # the set exists
    r = _rating(session, player_id, pool(puzzle_set))
    level = max(0, min(TSUME_LEVELS - 1, int((r - 1000) // 150)))
    seed = random.SystemRandom().randrange(1 << 40)
    pz = _tsume(puzzle_set, f"{level}-{seed}")
    public = pz.to_json()  # type: ignore[attr-defined]
    return _open(session, player_id, puzzle_set, f"{level}-{seed}", mode, None, closed,
                 {"id": f"{level}-{seed}", "set": puzzle_set, "tsume": public})


def answer(session: Session, player_id: int, attempt_id: int, answers: Sequence[str]
           ) -> JSONObject:
    a = _attempt(session, attempt_id, player_id)
    if a.status != "open":
        raise PuzzleError("attempt_over", "this attempt has ended", 409, attempt=attempt_id)
    if not a.puzzle_set.endswith(TSUME_SUFFIX):
        raise PuzzleError("line_puzzle", "this puzzle is played, not answered",
                          attempt=attempt_id)
    pz = _tsume(a.puzzle_set, a.puzzle_id)
    questions = pz.questions  # type: ignore[attr-defined]
    if len(answers) != len(questions):
        raise PuzzleError("answers", f"give {len(questions)} answers", count=len(questions))
    truth = [pz.answer(q) for q in questions]  # type: ignore[attr-defined]
    solved = all(str(x).strip().lower() == t.lower() for x, t in zip(answers, truth,
                                                                      strict=True))
    level = int(a.puzzle_id.split("-")[0])
    out = _finish(session, a, solved, initial=1000.0 + 150.0 * level + 75.0)
    out["answers"] = truth
    return out


def summary(session: Session, player_id: int) -> JSONObject:
    """The player's puzzle ratings per set, attempts and best streak."""
    rows = []
    for s in sets():
        name = str(s["set"])
        row = session.get(RatingRow, (player_id, pool(name)))
        rows.append({"set": name, "pool": pool(name),
                     "rating": None if row is None else row.rating,
                     "deviation": None if row is None else row.deviation,
                     "provisional": None if row is None else row.provisional})
    n = session.scalar(select(func.count()).select_from(PUZZLE_ATTEMPTS).where(
        PUZZLE_ATTEMPTS.c.player_id == player_id))
    return {"ratings": rows, "attempts": int(n or 0),
            "best_streak": best_streak(session, player_id)}
