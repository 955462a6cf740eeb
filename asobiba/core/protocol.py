"""The one game protocol every asobiba game implements.

Two classes:

* :class:`Game` — the game *definition*: id, titles, options, variants, seat counts,
  rules version, bot levels. One instance per game, found through ``asobiba.games.get``.
* :class:`State` — one *position* of one game. States are **immutable**: ``play`` returns
  a new state and never changes the one it was called on, so a state handed to a caller is
  never mutated behind their back. (Search code inside a game may use apply/undo on its own
  private bitboards; that never escapes.)

The public methods on :class:`State` do the shared checks (whose turn, legality, parsing)
and delegate to small hooks (``_acting``, ``_legal``, ``_apply``, ...) that each game fills,
in the manner of OpenSpiel's ``_legal_actions`` / ``_apply_action``. A bad move is *refused*
with a typed error; it never becomes a loss and never changes anything.

Information leaves a game only through :meth:`State.view` — a JSON-ready dict of exactly
what one seat (or a spectator, ``seat=None``) may see. Bots and clients get views, never
states. :meth:`State.to_json` (the full state, secrets included) exists for replays of
finished games and for debugging; the server never sends it during play.

All randomness comes from the seed given to :meth:`Game.new_game` (see ``core.rng``):
chance events (shuffles, deals, layouts, die rolls) are drawn from it when the game starts
or kept in the state as an ``Rng`` state, so (game, options, seed, moves) replays exactly.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Generic, Protocol, Self, TypeVar, cast, overload

from .errors import (
    IllegalMoveError,
    MalformedMoveError,
    MoveError,
    NotYourTurnError,
    OptionError,
    Why,
    WhyArg,
    option_why,
    why,
)
from .hooks import GameProgression
from .jsontypes import JSONMapping, JSONObject
from .options import Option, rated_violations, validate_options
from .views import CommonView

if TYPE_CHECKING:
    from .bot import Bot

Move = Hashable

CORE_WHY: dict[str, str] = {
    "not_legal": "it is not among the legal moves in this position",
    "game_over": "the game is over; no more moves can be played",
    "which_seat": "several seats act at once here; say which seat moves",
    "not_your_turn": "it is not seat {seat}'s turn",
    "not_text": "a move must be text",
    "move_length": "a move must be non-empty text of at most 200 characters",
    "malformed": "this is not a move in the game's notation",
}
"""The English of the codes every game shares (a refused move's rule, ``why:<code>`` in the
front end's table); a game's own codes are ``<game>.<name>`` in its own table."""
"""A game's internal move object. Any hashable value; its text form comes from the game."""

if TYPE_CHECKING:
    from typing_extensions import TypeVar as _TypeVarWithDefault

    MoveT = _TypeVarWithDefault("MoveT", bound=Hashable, default=Hashable, covariant=True)
else:  # the default matters only to the type checker; Python 3.11's TypeVar has none
    MoveT = TypeVar("MoveT", bound=Hashable, covariant=True)
"""The move type of one game's states (``ReversiState`` is a ``State[int]``).

Covariant on purpose: a ``State[int]`` is a ``State`` (= ``State[Hashable]``) to the shared
code (search, runner, server), which only hands a state moves taken from that state's own
:meth:`State.legal_moves`. The type checker cannot see that pairing, so the methods that take
a move back carry ``# type: ignore[misc]`` for the covariant parameter — the same contract as
before, now with each game's own move type inside the game."""

PROTOCOL_VERSION = 1


class Ordered(Protocol):
    """A ranking key: numbers, or tuples of them (a score, then a tie-break)."""

    def __gt__(self, other: Self, /) -> bool: ...


_Key = TypeVar("_Key", bound=Ordered)


def _ranks(keys: Sequence[_Key]) -> tuple[int, ...]:
    """1 + how many keys are greater, per seat (higher is better, ties share a rank)."""
    return tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game.

    ``scores`` per seat (the game's own points), ``ranks`` per seat (1 = best; equal ranks
    share a place, so a two-seat draw is ``(1, 1)``), and a short ``reason``. Team games
    give partners the same rank.

    The reason is a code with arguments (issue 26): ``code`` (``<game>.<name>``, e.g.
    ``flipflop.holds``) and ``args`` (``{"colour": "white", "sq": "b3"}``) are what a front
    end renders from its i18n table; ``reason`` is the same in English, for logs, the CLI and
    records. Records made before codes existed hold only ``reason``: they load with ``code``
    empty (and a front end shows the stored English sentence); ``code``/``args`` take no part
    in equality, so a replayed result matches an old stored one.
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    reason: str = ""
    code: str = field(default="", compare=False)
    args: Mapping[str, WhyArg] = field(default_factory=dict, compare=False)

    @classmethod
    def coded(cls, scores: Sequence[float], ranks: Sequence[int], why: Why) -> Outcome:
        """An outcome with the coded reason ``why``."""
        return cls(tuple(scores), tuple(ranks), why.text, why.code, dict(why.args))

    @classmethod
    def from_scores(
        cls,
        scores: Sequence[float],
        reason: str | Why = "",
        keys: Sequence[Ordered] | None = None,
    ) -> Outcome:
        """Rank seats by ``keys`` (default: the scores), higher is better, ties shared."""
        ranks = _ranks(scores) if keys is None else _ranks(keys)
        if isinstance(reason, Why):
            return cls.coded(scores, ranks, reason)
        return cls(tuple(scores), ranks, reason)

    @property
    def why(self) -> Why:
        return Why(self.code, self.args, self.reason)

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)

    @property
    def is_draw(self) -> bool:
        return len(self.ranks) > 1 and len(set(self.ranks)) == 1

    def points(self, seat: int) -> float:
        """1 for a sole win, 0 for a last place, shared in between (for arenas and Elo)."""
        n = len(self.ranks)
        if n == 1:
            return 1.0 if self.ranks[0] == 1 else 0.0
        better = sum(1 for r in self.ranks if r < self.ranks[seat])
        tied = sum(1 for r in self.ranks if r == self.ranks[seat])
        # average of the positional points over the tied block (n-1 for first ... 0 for last)
        top = (n - 1 - better)
        return sum(top - k for k in range(tied)) / tied / (n - 1)

    def to_json(self) -> JSONObject:
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "draw": self.is_draw,
            "reason": self.reason,
            "code": self.code,
            "args": dict(self.args),
        }

    @classmethod
    def from_json(cls, data: JSONMapping) -> Outcome:
        args = data.get("args") or {}
        if not isinstance(args, Mapping):
            raise ValueError("result args must be an object")
        return cls(tuple(data["scores"]), tuple(data["ranks"]), str(data.get("reason", "")),
                   str(data.get("code") or ""),
                   {str(k): v if isinstance(v, int) else str(v) for k, v in args.items()})


class LegalMoves(Sequence[MoveT]):
    """The legal moves of one seat: a list-like collection that also answers ``in`` for the
    move's text (``"d3" in state.legal_moves()``), like python-chess's ``board.legal_moves``."""

    __slots__ = ("_state", "_moves", "_seat", "_texts")

    def __init__(self, state: State[MoveT], seat: int | None, moves: Sequence[MoveT]) -> None:
        self._state = state
        self._seat = seat
        self._moves = moves
        self._texts: list[str] | None = None

    @overload
    def __getitem__(self, index: int) -> MoveT: ...

    @overload
    def __getitem__(self, index: slice[int | None, int | None, int | None]) -> Sequence[MoveT]: ...

    def __getitem__(self, index: int | slice[int | None, int | None, int | None]
                    ) -> MoveT | Sequence[MoveT]:
        return self._moves[index]

    def __len__(self) -> int:
        return len(self._moves)

    def __iter__(self) -> Iterator[MoveT]:
        return iter(self._moves)

    def __contains__(self, item: object) -> bool:
        if isinstance(item, str):
            return item in self.texts()
        return item in self._moves

    def count(self, value: object = None) -> int:  # type: ignore[override,unused-ignore]
        """Number of legal moves (python-chess style); with an argument, list.count."""
        if value is None:
            return len(self._moves)
        return self._moves.count(value)

    def texts(self) -> list[str]:
        if self._texts is None:
            self._texts = [self._state.move_text(m, self._seat) for m in self._moves]
        return self._texts

    def __repr__(self) -> str:
        return f"<LegalMoves {' '.join(self.texts())}>"


class State(ABC, Generic[MoveT]):
    """An immutable position. Subclasses are per game and fill the hooks below."""

    __slots__ = ()

    # ---- what every game state must provide ---------------------------------------------
    game: ClassVar[Game]
    """The game this state belongs to (set on each game's State subclass)."""

    @property
    @abstractmethod
    def options(self) -> JSONMapping:
        """The validated options this game was started with."""

    @abstractmethod
    def _acting(self) -> tuple[int, ...]:
        """Seats that may act now; ``()`` when the game is over."""

    @abstractmethod
    def _legal(self, seat: int) -> Sequence[MoveT]:
        """Legal moves of an acting seat, in a stable order."""

    @abstractmethod
    def _apply(self, move: MoveT, seat: int) -> State[MoveT]:  # type: ignore[misc]
        """The state after a legal move (a new object; ``self`` is unchanged)."""

    @abstractmethod
    def _outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``."""

    @abstractmethod
    def _view(self, seat: int | None) -> Mapping[str, object]:
        """The game-specific part of what ``seat`` may see (JSON-ready): a game returns its
        own keys typed (a TypedDict of its ``views.py``)."""

    @abstractmethod
    def _move_text(self, move: MoveT, seat: int | None) -> str:  # type: ignore[misc]
        """The move in the game's notation."""

    def _parse(self, text: str, seat: int) -> MoveT:
        """Turn text into a move object, or raise :class:`MalformedMoveError`.

        The default matches the text against the legal moves' texts (case-insensitive);
        games with a real notation override it so that an illegal but well-formed move
        can be told apart from garbage and explained by :meth:`_why_illegal`.
        """
        wanted = text.strip().lower()
        for move in self._legal(seat):
            if self._move_text(move, seat).lower() == wanted:
                return move
        raise IllegalMoveError(
            f"{text!r} is not a legal move here; legal moves: "
            + ", ".join(self._move_text(m, seat) for m in self._legal(seat)),
            move=text, why=why(CORE_WHY, "not_legal"),
        )

    def _why_illegal(self, move: MoveT, seat: int) -> Why:  # type: ignore[misc]
        """The rule a well-formed but illegal move breaks, as a code with arguments (English
        text from the game's table: see :func:`asobiba.core.errors.why`)."""
        return why(CORE_WHY, "not_legal")

    def _full(self) -> JSONObject:
        """Everything, secrets included (for finished-game replays and debugging)."""
        return dict(self._view(None))

    # ---- public API (shared checks; do not override) ------------------------------------
    @property
    def acting_seats(self) -> tuple[int, ...]:
        return self._acting()

    @property
    def to_move(self) -> int | None:
        """The seat to act (the first acting seat in simultaneous games); ``None`` when over."""
        acting = self._acting()
        return acting[0] if acting else None

    @property
    def is_over(self) -> bool:
        return not self._acting()

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome() if self.is_over else None

    @property
    def num_seats(self) -> int:
        return self.game.num_seats(self.options)

    def _resolve_seat(self, seat: int | None) -> int:
        acting = self._acting()
        if not acting:
            raise NotYourTurnError("the game is over; no more moves can be played",
                                   why=why(CORE_WHY, "game_over"))
        if seat is None:
            if len(acting) > 1:
                raise NotYourTurnError(
                    f"several seats act at once here ({acting}); say which seat moves",
                    why=why(CORE_WHY, "which_seat"))
            return acting[0]
        if seat not in acting:
            raise NotYourTurnError(
                f"it is not seat {seat}'s turn; seat(s) to act: "
                + ", ".join(map(str, acting)), why=why(CORE_WHY, "not_your_turn", seat=seat))
        return seat

    def legal_moves(self, seat: int | None = None) -> LegalMoves[MoveT]:
        """The legal moves of ``seat`` (default: the seat to move); empty if it cannot act."""
        acting = self._acting()
        if seat is None:
            seat = acting[0] if acting else None
        if seat is None or seat not in acting:
            return LegalMoves(self, seat, ())
        return LegalMoves(self, seat, self._legal(seat))

    def move_text(self, move: MoveT, seat: int | None = None) -> str:  # type: ignore[misc]
        if seat is None:
            seat = self.to_move
        return self._move_text(move, seat)

    def parse(self, text: str, seat: int | None = None) -> MoveT:
        """Parse ``text`` as a legal move of ``seat`` or raise a typed :class:`MoveError`."""
        if not isinstance(text, str):
            raise MalformedMoveError(f"a move must be text, not {type(text).__name__}",
                                     why=why(CORE_WHY, "not_text"))
        if len(text) > 200 or not text.strip():
            raise MalformedMoveError("a move must be non-empty text of at most 200 characters",
                                     move=text[:40], why=why(CORE_WHY, "move_length"))
        seat = self._resolve_seat(seat)
        move = self._parse(text, seat)
        if move not in self._legal(seat):
            rule = self._why_illegal(move, seat)
            raise IllegalMoveError(f"{text.strip()} is illegal: {rule.text}", move=text, why=rule)
        return move

    def play(self, move: str | MoveT, seat: int | None = None) -> State[MoveT]:
        """The state after ``move`` (text or move object). ``self`` never changes; a bad
        move raises a :class:`MoveError` subclass naming the rule it breaks."""
        if isinstance(move, str):
            parsed = self.parse(move, seat)
            seat = self._resolve_seat(seat)
        else:
            seat = self._resolve_seat(seat)
            if move not in self._legal(seat):
                rule = self._why_illegal(move, seat)
                raise IllegalMoveError(
                    f"{self._safe_text(move, seat)} is illegal: {rule.text}",
                    move=self._safe_text(move, seat), why=rule,
                )
            parsed = move
        return self._apply(parsed, seat)

    def _safe_text(self, move: MoveT, seat: int) -> str:  # type: ignore[misc]
        try:
            return self._move_text(move, seat)
        except Exception:  # noqa: BLE001 - a garbage move object must still get a message
            return repr(move)

    def child(self, move: MoveT, seat: int | None = None) -> State[MoveT]:  # type: ignore[misc]
        """Unchecked ``play`` for search: ``move`` must come from :meth:`legal_moves`."""
        if seat is None:
            seat = self._acting()[0]
        return self._apply(move, seat)

    def view(self, seat: int | None) -> CommonView:
        """Exactly what ``seat`` may see (``None``: a spectator). The only way information
        leaves a game. Includes the seat's own legal moves when it may act.

        Typed (issue 26): the keys every game has are :class:`~asobiba.core.views.CommonView`;
        each game's state narrows the return type to its own view (``ReversiView`` …, in
        ``asobiba/games/<id>/views.py``), whose game keys its :meth:`_view` produces."""
        if seat is not None and not (0 <= seat < self.num_seats):
            raise ValueError(f"seat {seat} does not exist; seats are 0..{self.num_seats - 1}")
        acting = self._acting()
        outcome = self.outcome
        data: JSONObject = {
            "game": self.game.id,
            "seat": seat,
            "seats": self.num_seats,
            "to_move": acting[0] if acting else None,
            "acting": list(acting),
            "over": not acting,
            "outcome": outcome.to_json() if outcome else None,
            "legal_moves": self.legal_moves(seat).texts() if seat in acting else [],
        }
        data.update(self._view(seat))
        return cast(CommonView, data)

    def to_json(self) -> JSONObject:
        """The full state, secrets included. Never sent to a seat during play."""
        acting = self._acting()
        outcome = self.outcome
        data: JSONObject = {
            "game": self.game.id,
            "to_move": acting[0] if acting else None,
            "acting": list(acting),
            "over": not acting,
            "outcome": outcome.to_json() if outcome else None,
        }
        data.update(self._full())
        return data

    def render(self, seat: int | None = None) -> str:
        """A text picture of what ``seat`` sees (terminal play)."""
        return self.game.render_view(self.view(seat))


@dataclass(frozen=True)
class BotLevel:
    """A named bot strength. ``level`` is what users type (``--vs 3``, ``--level max``)."""

    level: str
    title: str
    description: str = ""
    title_ja: str = ""


_PROGRESSION: dict[type[Game], GameProgression] = {}


class Game(ABC):
    """A game definition: metadata declared once as data, plus the factory for states.

    Subclasses set the class attributes and fill :meth:`_initial`; they may override
    :meth:`num_seats`, :meth:`render_view`, :meth:`make_bot`, :meth:`state_from_view`.
    """

    id: ClassVar[str]
    title_en: ClassVar[str]
    title_ja: ClassVar[str]
    summary: ClassVar[str] = ""
    summary_ja: ClassVar[str] = ""  # the lobby's Japanese summary (one source with the English)
    rules_version: ClassVar[int] = 1
    """Bumped only when a rule change makes an old record replay differently."""
    legacy_options: ClassVar[Mapping[int, JSONMapping]] = {}
    """Per older rules version, the options that make its records replay as they were
    under the current version (e.g. a default that changed, made explicit); a version not
    listed is refused."""
    options: ClassVar[tuple[Option, ...]] = ()
    variants: ClassVar[Mapping[str, JSONMapping]] = {}
    """Named option presets, e.g. ``{"5x5": {"board": "5x5"}}``."""
    perfect_information: ClassVar[bool] = True
    chance: ClassVar[bool] = False
    simultaneous: ClassVar[bool] = False
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2
    bot_levels: ClassVar[tuple[BotLevel, ...]] = ()
    default_level: ClassVar[str | None] = None
    """The CPU level the lobby offers first ("Play the computer"): a newcomer's fair
    opponent (docs/web.md says why for each game); None: the first level listed."""
    default_seed: ClassVar[int] = 0

    # ---- options and seats ---------------------------------------------------------------
    def validate_options(self, raw: JSONMapping | None = None) -> JSONObject:
        """Complete and check options (a ``variant`` name may stand for its preset)."""
        raw = dict(raw or {})
        variant = raw.pop("variant", None)
        if variant is not None:
            if variant not in self.variants:
                raise OptionError(
                    f"option 'variant': {variant!r} is not allowed; allowed values: "
                    + ", ".join(self.variants),
                    option="variant",
                    why=option_why("option.bad_value", option="variant",
                                   value=str(variant)[:40], allowed=", ".join(self.variants)),
                )
            raw = {**self.variants[variant], **raw}
        options = validate_options(self.options, raw)
        self._check_options(options)
        return options

    def _check_options(self, options: JSONObject) -> None:  # noqa: B027 - optional hook
        """Cross-option checks (raise OptionError); default none."""

    def rated_violations(self, options: JSONMapping) -> list[str]:
        """Why these options cannot be played rated (learning aids switched on); [] if they can."""
        return rated_violations(self.options, options)

    def match_tiebreak(self, state: State, seat: int) -> float:
        """The second key of a reverse match after the summed scores, for ``seat`` of a
        final ``state``: the one tie-break hook, ``GameProgression.view_tiebreak``, read
        from the final spectator view (ReverStarGo: captured stones); 0 where a game has
        none."""
        hook = self.progression().view_tiebreak
        return float(hook(state.view(None))[seat]) if hook is not None else 0.0

    def num_seats(self, options: JSONMapping) -> int:
        players = options.get("players")
        return int(players) if players is not None else self.min_seats

    # ---- starting ------------------------------------------------------------------------
    def new_game(self, options: JSONMapping | None = None, seed: int | None = None) -> State:
        """The start position for ``options`` and ``seed`` (all chance comes from the seed)."""
        opts = self.validate_options(options)
        if seed is None:
            seed = self.default_seed
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise OptionError(f"seed must be an integer, not {seed!r}", option="seed",
                              why=option_why("option.seed", value=str(seed)[:40]))
        return self._initial(opts, seed)

    @abstractmethod
    def _initial(self, options: JSONObject, seed: int) -> State:
        """The start state for already validated options."""

    def replay(
        self,
        moves: Sequence[str | tuple[int, str]],
        options: JSONMapping | None = None,
        seed: int | None = None,
    ) -> list[State]:
        """Every state from the start through each move (text, or ``(seat, text)``)."""
        state = self.new_game(options, seed)
        states = [state]
        for number, entry in enumerate(moves, 1):
            seat, text = entry if isinstance(entry, tuple) else (None, entry)
            try:
                state = state.play(text, seat)
            except MoveError as exc:
                raise type(exc)(f"move {number} ({text}): {exc}", move=text) from exc
            states.append(state)
        return states

    # ---- presentation and bots -----------------------------------------------------------
    def render_view(self, view: JSONMapping) -> str:
        """Text picture of a view for the terminal; games override."""
        import json

        return json.dumps(view, ensure_ascii=False, indent=1)

    def level_names(self) -> list[str]:
        return [b.level for b in self.bot_levels]

    def make_bot(self, level: str, seed: int = 0) -> Bot:
        """A bot (see ``core.bot.Bot``) of the named level: made by the factory the game's
        manifest names (``GameManifest.bots``), so the rules module never imports its bots
        module (which imports the rules)."""
        from .manifest import manifest_of

        factory = manifest_of(self).bot_factory()
        if factory is None:
            raise NotImplementedError(f"{self.id} has no bots yet")
        return factory(level, seed)

    def state_from_view(self, view: JSONMapping) -> State:
        """Rebuild the state from a view. Only perfect-information games can: a view then
        holds everything, so a bot that searches from a view sees no more than the seat."""
        raise NotImplementedError(f"{self.id} cannot rebuild a state from a view")

    def from_position(self, position: str, options: JSONMapping | None = None
                      ) -> State:
        """A hand-made position in the game's own position notation (tests, tutorials,
        puzzles), with hidden information where the game has some; games that have such a
        notation override it (FlipFlop's FEN-like text, Memory Matrix's layout rows)."""
        raise NotImplementedError(f"{self.id} has no position notation")

    def progression(self) -> GameProgression:
        """What the game brings to tutorials, move feedback, the ladder and dailies: the
        hooks its manifest names (``core/manifest.py``), or no hooks at all when it names
        none. An import error inside the game's progression module is raised, never taken
        for "no hooks"."""
        cached = _PROGRESSION.get(type(self))
        if cached is not None:
            return cached
        from .manifest import manifest_of

        hooks = manifest_of(self).hooks()
        _PROGRESSION[type(self)] = hooks
        return hooks

    def describe(self) -> JSONObject:
        """Metadata as JSON (``asobiba games --json``, the web lobby)."""
        return {
            "id": self.id,
            "title": {"en": self.title_en, "ja": self.title_ja},
            "summary": self.summary,
            "summary_ja": self.summary_ja,
            "rules_version": self.rules_version,
            "seats": [self.min_seats, self.max_seats],
            "perfect_information": self.perfect_information,
            "chance": self.chance,
            "simultaneous": self.simultaneous,
            "variants": {k: dict(v) for k, v in self.variants.items()},
            "options": [
                {
                    "name": o.name,
                    "default": o.default,
                    "kind": o.kind,
                    "allowed": o.allowed(),
                    "choices": list(o.choices),
                    "description": o.description,
                    "description_ja": o.description_ja,
                    "casual_only": o.casual_only,
                    "seat": o.seat,
                    "minimum": o.minimum,
                    "maximum": o.maximum,
                }
                for o in self.options
            ],
            "bots": [
                {"level": b.level, "title": b.title, "title_ja": b.title_ja,
                 "description": b.description}
                for b in self.bot_levels
            ],
            "default_bot": self.default_level or next((b.level for b in self.bot_levels), None),
        }
