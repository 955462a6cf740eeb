"""The miner, the verifier and the JSON Lines format of puzzle sets (docs/puzzles.md)."""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ..core import Bot, Game, Record, Rng, State, derive_seed
from ..core.hooks import PuzzleJudge, Verdict
from ..core.jsontypes import JSONMapping, JSONObject
from ..games import GAME_IDS, get


def _kinds() -> dict[str, tuple[str, JSONMapping]]:
    """The puzzle sets, name → (game, options), from the games' ``puzzle_sets`` hooks."""
    out: dict[str, tuple[str, JSONMapping]] = {}
    for gid in GAME_IDS:
        for name, options in get(gid).progression().puzzle_sets.items():
            out[name] = (gid, options)
    return out


class _Kinds(Mapping[str, tuple[str, JSONMapping]]):
    """:func:`_kinds`, read on first use (the games load lazily)."""

    _data: dict[str, tuple[str, JSONMapping]] | None = None

    def _get(self) -> dict[str, tuple[str, JSONMapping]]:
        if self._data is None:
            self._data = _kinds()
        return self._data

    def __getitem__(self, key: str) -> tuple[str, JSONMapping]:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())


KINDS: Mapping[str, tuple[str, JSONMapping]] = _Kinds()

MAX_PLAYER_MOVES = 3
"""A solution line holds at most this many of the player's moves (five plies with replies)."""
PER_GAME = 2
"""At most this many puzzles from one game (self-play or record): variety over volume."""
JUDGED_PER_GAME = 8
"""At most this many positions of one self-play game are judged (chosen by the seed)."""
RANDOM_MOVE = 0.2
"""Self-play: the chance that a seat plays a uniformly random legal move instead of its bot's."""
FORMAT = 1

DATA = Path(__file__).with_name("sets")


@dataclass(frozen=True)
class Puzzle:
    """One verified puzzle: the position is the game replayed through ``moves``; ``line`` is
    the solution from there (the player's moves, and the engine's replies between them)."""

    id: str
    kind: str
    game: str
    options: JSONMapping
    seed: int
    moves: tuple[str, ...]
    line: tuple[str, ...]
    themes: tuple[str, ...]
    exact: bool
    rating: int
    source: str
    extra: JSONMapping = field(default_factory=dict)

    def to_json(self) -> JSONObject:
        return {"id": self.id, "kind": self.kind, "game": self.game,
                "options": dict(self.options), "seed": self.seed, "moves": list(self.moves),
                "line": list(self.line), "themes": list(self.themes), "exact": self.exact,
                "rating": self.rating, "source": self.source, "v": FORMAT}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Puzzle:
        def strs(key: str) -> tuple[str, ...]:
            v = data[key]
            assert isinstance(v, list)
            return tuple(str(x) for x in v)

        options = data["options"]
        assert isinstance(options, dict)
        seed, rating = data["seed"], data["rating"]
        assert isinstance(seed, int) and isinstance(rating, int)
        return cls(str(data["id"]), str(data["kind"]), str(data["game"]), options, seed,
                   strs("moves"), strs("line"), strs("themes"), bool(data["exact"]), rating,
                   str(data["source"]))

    def position(self) -> State:
        """The puzzle's position, replayed through the rules."""
        return get(self.game).replay(list(self.moves), self.options, self.seed)[-1]

    def public(self) -> JSONObject:
        """What a solver may see before the attempt ends: no line, no themes."""
        return {"id": self.id, "kind": self.kind, "game": self.game,
                "options": dict(self.options), "moves": list(self.moves),
                "player_moves": (len(self.line) + 1) // 2}


def puzzle_id(game: str, options: JSONMapping, seed: int, moves: Sequence[str]) -> str:
    """Stable: the same game, options, seed and moves always give the same id."""
    text = "\x1f".join([game, json.dumps(dict(options), sort_keys=True), str(seed), *moves])
    return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


def judge_for(game_id: str, options: JSONMapping) -> PuzzleJudge:
    hook = get(game_id).progression().puzzles
    judge = None if hook is None else hook(options)
    if judge is None:
        raise ValueError(f"{game_id} has no puzzle judge")
    return judge


def player_seat(state: State) -> int:
    seat = state.to_move
    if seat is None:
        raise ValueError("the game is over")
    return seat


def unique_best(verdict: Verdict | None) -> str | None:
    """The one move the verdict singles out, or ``None``.

    A proven win (``>= win_value``) is unique when no other move is a proven win. Without a
    win: exact verdicts give no puzzle (we ask for the winning move) — except a solo game's
    (``win_value`` infinite, ``margin`` finite: the best score by ``margin``); a search's
    verdict gives the best move when it beats the next one by ``margin`` and reaches
    ``best_min``."""
    if verdict is None or len(verdict.values) < 2:
        return None
    ranked = sorted(verdict.values.items(), key=lambda kv: (-kv[1], kv[0]))
    (best, v1), (_, v2) = ranked[0], ranked[1]
    if v1 >= verdict.win_value:
        return best if v2 < verdict.win_value else None
    if verdict.exact:
        # a game with no winner to find (a solo score, Patapata): exact values with a finite
        # margin — the best by at least that much; otherwise we ask for the winning move
        if math.isinf(verdict.win_value) and math.isfinite(verdict.margin):
            return best if v1 - v2 >= verdict.margin else None
        return None
    return best if v1 - v2 >= verdict.margin and v1 >= verdict.best_min else None


def _reply(verdict: Verdict | None) -> str | None:
    """The engine's best reply (the first in text order among equals)."""
    if verdict is None or not verdict.values:
        return None
    return min(verdict.values, key=lambda m: (-verdict.values[m], m))


def solution_line(judge: PuzzleJudge, state: State) -> tuple[list[str], bool] | None:
    """The solution from ``state``: each player move the unique one, each reply the engine's
    best. ``None`` when the first move is not unique. Also says whether every verdict used
    was exact."""
    player = player_seat(state)
    verdict = judge.judge(state)
    first = unique_best(verdict)
    if first is None or verdict is None:
        return None
    exact = verdict.exact
    line = [first]
    s = state.play(first)
    made = 1
    while not s.is_over and made < MAX_PLAYER_MOVES:
        pending: list[str] = []
        while not s.is_over and s.to_move != player:  # the engine's replies
            rv = judge.judge(s)
            reply = _reply(rv)
            if reply is None or rv is None:
                return line, exact
            exact = exact and rv.exact
            pending.append(reply)
            s = s.play(reply)
        if s.is_over:
            break
        v = judge.judge(s)
        nxt = unique_best(v)
        if nxt is None or v is None:
            break
        exact = exact and v.exact
        line += pending + [nxt]
        s = s.play(nxt)
        made += 1
    return line, exact


def initial_rating(state: State, line: Sequence[str]) -> int:
    """A puzzle's rating before anyone tries it: 1500, more for longer lines and more legal
    moves to choose from (a guess; attempts move it, docs/puzzles.md)."""
    choices = len(state.legal_moves())
    player_moves = (len(line) + 1) // 2
    r = 1200 + 200 * (player_moves - 1) + 120 * math.log2(max(2, choices))
    return int(min(2400, max(800, round(r / 10) * 10)))


def _make(kind: str, judge: PuzzleJudge, state: State, seed: int, moves: Sequence[str],
          source: str) -> Puzzle | None:
    if not judge.candidate(state):
        return None
    found = solution_line(judge, state)
    if found is None:
        return None
    line, exact = found
    game, options = KINDS[kind]
    return Puzzle(puzzle_id(game, options, seed, moves), kind, game, options, seed,
                  tuple(moves), tuple(line), tuple(judge.themes(state, line)), exact,
                  initial_rating(state, line), source,
                  {"key": judge.key(state)})


def _bot_levels(game: Game, judge: PuzzleJudge) -> list[str]:
    """The judge's self-play levels (cheap ones: the build runs on small machines; the random
    moves mixed in, :data:`RANDOM_MOVE`, keep the games varied)."""
    known = {b.level for b in game.bot_levels}
    return [lv for lv in judge.selfplay_levels if lv in known or lv == "random"] or ["random"]


def mine_selfplay(kind: str, seed: int, judge: PuzzleJudge | None = None) -> list[Puzzle]:
    """Puzzles from one seeded self-play game (reproducible: the same kind and seed always
    give the same game and the same puzzles)."""
    game_id, options = KINDS[kind]
    game = get(game_id)
    judge = judge or judge_for(game_id, options)
    rng = Rng(seed, "puzzles", kind)
    game_seed = derive_seed(seed, "game", kind)
    state = game.new_game(options, game_seed)
    levels = _bot_levels(game, judge)
    known = {b.level for b in game.bot_levels}
    bots: list[Bot | None] = []
    for seat in range(state.num_seats):
        level = rng.choice(levels)
        if level not in known:  # "random": uniformly random legal moves
            bots.append(None)
            continue
        made = game.make_bot(level, derive_seed(seed, "bot", seat))
        made.reset(seat, options)
        bots.append(made)
    states: list[State] = [state]
    moves: list[str] = []
    while not state.is_over and len(moves) < 200:
        seat = player_seat(state)
        legal = state.legal_moves()
        bot = bots[seat]
        if bot is None or rng.random() < RANDOM_MOVE:
            text = state.move_text(rng.choice(list(legal)))
        else:
            text = bot.choose(state.view(seat))
        state = state.play(text, seat)
        moves.append(text)
        states.append(state)
    picks = list(range(len(states)))
    rng.shuffle(picks)
    out: list[Puzzle] = []
    tried = 0
    for i in picks:
        if tried >= JUDGED_PER_GAME:
            break
        if not judge.candidate(states[i]):
            continue
        tried += 1
        pz = _make(kind, judge, states[i], game_seed, moves[:i], f"selfplay:{seed}")
        if pz is not None:
            out.append(pz)
            if len(out) >= PER_GAME:
                break
    return out


def kind_of(game_id: str, options: JSONMapping) -> str | None:
    for kind, (g, opts) in KINDS.items():
        if g == game_id and all(options.get(k, v) == v for k, v in opts.items()):
            return kind
    return None


def mine_record(record: Record, judge: PuzzleJudge | None = None) -> list[Puzzle]:
    """Puzzles from a stored game: its positions, replayed (and so checked) by the rules."""
    kind = kind_of(record.game, record.options)
    if kind is None:
        return []
    game_id, options = KINDS[kind]
    judge = judge or judge_for(game_id, options)
    states = record.replay(get)
    moves = [m.move for m in record.moves]
    out: list[Puzzle] = []
    for i, s in enumerate(states):
        pz = _make(kind, judge, s, record.seed, moves[:i], "record")
        if pz is not None:
            # the options the record was played with (defaults filled in the same way)
            out.append(pz)
            if len(out) >= PER_GAME:
                break
    return out


def verify(puzzle: Puzzle, judge: PuzzleJudge | None = None) -> list[str]:
    """Re-check a puzzle with the engine: problems found (empty: verified). The line must be
    legal, each player move the unique one, each reply the engine's best."""
    judge = judge or judge_for(puzzle.game, puzzle.options)
    try:
        state = puzzle.position()
    except Exception as exc:  # noqa: BLE001 - any replay failure is a finding
        return [f"position does not replay: {exc}"]
    if puzzle_id(puzzle.game, puzzle.options, puzzle.seed, puzzle.moves) != puzzle.id:
        return ["id does not match the position"]
    player = player_seat(state)
    problems = []
    for i, mv in enumerate(puzzle.line):
        verdict = judge.judge(state)
        want = unique_best(verdict) if state.to_move == player else _reply(verdict)
        if want != mv:
            problems.append(f"ply {i}: line has {mv}, the engine says {want}")
            break
        state = state.play(mv)
    return problems


# ---- sets: build and load -----------------------------------------------------------------

def shipped_path(kind: str) -> Path:
    return DATA / f"{kind}.jsonl"


def _line(pz: Puzzle) -> str:
    return json.dumps(pz.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n"



_CACHE: dict[Path, tuple[float, list[Puzzle]]] = {}


def load_set(kind: str, path: Path | None = None) -> list[Puzzle]:
    """A set's puzzles in file order (cached per file until it changes)."""
    path = path or shipped_path(kind)
    if not path.exists():
        return []
    mtime = path.stat().st_mtime
    hit = _CACHE.get(path)
    if hit is not None and hit[0] == mtime:
        return hit[1]
    with path.open(encoding="utf-8") as f:
        out = [Puzzle.from_json(json.loads(line)) for line in f if line.strip()]
    _CACHE[path] = (mtime, out)
    return out


def _mine_chunk(args: tuple[str, int, int]) -> tuple[list[JSONObject], float]:
    kind, start, n = args
    cpu0 = time.process_time()
    game_id, options = KINDS[kind]
    judge = judge_for(game_id, options)
    out = []
    for seed in range(start, start + n):
        for pz in mine_selfplay(kind, seed, judge):
            d = pz.to_json()
            d["_key"] = str(pz.extra.get("key", ""))
            out.append(d)
    return out, time.process_time() - cpu0


@dataclass
class BuildReport:
    kind: str
    count: int
    games: int
    cpu_seconds: float
    wall_seconds: float
    path: Path | None = None


def build(kind: str, count: int, seed: int = 0, jobs: int = 1, chunk: int = 8,
          records: Iterable[Record] = (), out: Path | None = None,
          progress: Callable[[int], None] | None = None,
          max_games: int = 0) -> tuple[list[Puzzle], BuildReport]:
    """Mine ``count`` distinct verified puzzles: first from ``records``, then from self-play
    games seeded ``seed``, ``seed``+1, ... in order, ``chunk`` games to a task on ``jobs``
    processes. The result depends only on (kind, count, seed, chunk, records), never on
    ``jobs``. Written to ``out`` as JSON Lines when given. Gives up after ``max_games``
    self-play games (default 100 per puzzle asked) with what it found."""
    max_games = max_games or max(2000, 100 * count)
    wall0, cpu0 = time.perf_counter(), time.process_time()
    sink = None
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        sink = out.open("w", encoding="utf-8")
    seen: set[str] = set()
    found: list[Puzzle] = []
    child_cpu = 0.0
    game_id, options = KINDS[kind]
    judge = judge_for(game_id, options) if records else None
    for rec in records:
        for pz in mine_record(rec, judge):
            key = str(pz.extra.get("key", ""))
            if key not in seen and len(found) < count:
                seen.add(key)
                found.append(pz)
                if sink is not None:
                    sink.write(_line(pz))
    games = 0

    def tasks() -> Iterator[tuple[str, int, int]]:
        start = seed
        while True:
            yield kind, start, chunk
            start += chunk

    def take(results: Iterable[tuple[list[JSONObject], float]]) -> None:
        nonlocal games, child_cpu
        for items, cpu in results:
            games += chunk
            child_cpu += cpu
            for d in items:
                key = str(d.pop("_key"))
                if key in seen or len(found) >= count:
                    continue
                seen.add(key)
                found.append(Puzzle.from_json(d))
                if sink is not None:  # written as found: a cut-short build leaves a prefix
                    sink.write(_line(found[-1]))
                    sink.flush()
            if progress is not None:
                progress(len(found))
            if len(found) >= count or games >= max_games:
                return

    if len(found) < count:
        if jobs <= 1:
            take(_mine_chunk(t) for t in tasks())
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                # a bounded window of tasks in flight, consumed in order (reproducible)
                it = tasks()
                window = [pool.submit(_mine_chunk, next(it)) for _ in range(jobs * 2)]

                def ordered() -> Iterator[tuple[list[JSONObject], float]]:
                    while True:
                        fut = window.pop(0)
                        window.append(pool.submit(_mine_chunk, next(it)))
                        yield fut.result()

                take(ordered())
                for fut in window:
                    fut.cancel()
    cpu = (time.process_time() - cpu0) + (child_cpu if jobs > 1 else 0.0)
    report = BuildReport(kind, len(found), games, cpu, time.perf_counter() - wall0, out)
    if sink is not None:
        sink.close()
    return found, report


def jobs_default() -> int:
    return max(1, min(4, os.cpu_count() or 1))
