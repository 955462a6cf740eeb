"""The Memory Matrix game definition: options as data, start layouts, terminal rendering."""

from __future__ import annotations

from collections.abc import Sequence

from ...core.errors import OptionError, option_why
from ...core.jsontypes import JSONMapping, JSONObject
from ...core.options import Option
from ...core.protocol import BotLevel, Game
from ...core.rng import Rng
from . import rules
from .palette import EMPTY, HOLE, LETTERS, NEUTRAL, WHITE
from .rules import Config, Pos
from .shapes import SHAPES, Geometry, geometry_for, mask_for
from .state import MemoryMatrixState

LAYOUTS = ("random", "windmill", "butterfly")


def config_for(options: JSONMapping) -> Config:
    """The rules configuration of validated options (white_any_time None = the default:
    on for two players with one colour each, as the author's summary says)."""
    geo = geometry_for(mask_for(options["shape"], options["mask"]))
    players, per = int(options["players"]), int(options["colours"])
    any_time = options["white_any_time"]
    if any_time is None:
        any_time = players == 2 and per == 1
    return Config(geo, players, per, bool(any_time), options["lost_colour"] == "pass",
                  bool(options.get("end_at_dead_board", True)))


def shares(geo: Geometry, colours: int) -> tuple[int, int]:
    """Pieces per colour and neutral pieces: equal shares, the remainder neutral."""
    return geo.count // colours, geo.count % colours


def start_pieces(options: JSONMapping) -> int:
    """Pieces each colour has on the board at the start: the option, or by default 2 for
    two players with one colour each (the reversi-like start that keeps the two-player game
    alive: docs/rules/memory_matrix.md § 4) and 1 otherwise."""
    if options.get("start_pieces") is not None:
        return int(options["start_pieces"])
    return 2 if int(options["players"]) == 2 and int(options["colours"]) == 1 else 1


def start_cells(geo: Geometry, colours: int, neutrals: int, layout: str,
                seed: int, per: int = 1) -> list[int]:
    """Start cells in turn order — colour 0, 1, …, then again colour 0, 1, … for the
    ``per``-th piece of each colour — followed by the neutral pieces.

    The start pieces fill the cells nearest the centre. ``windmill`` (風車): ring by ring,
    clockwise from the top-left, in turn order (1 2 / 4 3 on a 2×2 centre — a quarter turn
    moves every colour on by one; with two colours of two pieces, 1 2 / 2 1, the reversi
    start). ``butterfly`` (蝶々): row by row, left to right (1 2 / 3 4 — mirror-symmetric,
    the two wings swapping 1↔2 and 3↔4; two colours of two: 1 2 / 1 2). ``random``: the
    seed shuffles the pieces over the same cells (「中央に各色をランダムに」)."""
    cells = list(geo.centre_order[: colours * per + neutrals])
    if layout == "butterfly":
        cells.sort()
    elif layout == "random":
        Rng(seed, "memory_matrix", "layout").shuffle(cells)
    return cells


def config_from_raw(raw: JSONMapping) -> Config:
    """The rules configuration of raw options (as a bot receives them at reset)."""
    from . import GAME

    return config_for(GAME.validate_options(raw))


class MemoryMatrixGame(Game):
    id = "memory_matrix"
    title_en = "Memory Matrix"
    title_ja = "メモリー・マトリックス（メモマト）"
    summary = ("Multi-colour reversi for any number of players: a flipped piece shows white, "
               "and only your memory knows the colour beneath.")
    summary_ja = "何人でも遊べる多色リバーシ。裏返った駒は白になり、その下の色は記憶だけが頼り。"
    # 2: two players start with two pieces each (issue 16 item 4); 3: the game ends at a
    # dead board, no piece showing a colour (issue 27 item 1; docs/rules § 8)
    rules_version = 3
    # version 1 started every colour with one piece; versions 1 and 2 played dead boards out
    legacy_options = {1: {"start_pieces": 1, "end_at_dead_board": False},
                      2: {"end_at_dead_board": False}}
    perfect_information = False
    chance = True
    min_seats = 2
    max_seats = 8
    options = (
        Option("players", 4, "int", minimum=2, maximum=8,
               description="number of players (the seed: usually 4, any number works)",
               description_ja="人数"),
        Option("colours", 1, "int", minimum=1, maximum=2,
               description="colours per player (2 = the seed's 2-players-2-colours game)",
               description_ja="1人の色数"),
        Option("shape", "8x8", "choice", choices=(*SHAPES, "custom"),
               description="board shape; 'custom' takes the mask option", description_ja="盤"),
        Option("mask", "", "str",
               description="custom board: rows of '#' (cell) and '.' (hole) separated by '/'",
               description_ja="自由な盤の形：'#'（マス）と'.'（穴）の行を'/'で区切る"),
        Option("start_pieces", None, "int", minimum=1, maximum=4, nullable=True,
               description="pieces of each colour on the board at the start (default: 2 "
                           "for 2 players with 1 colour each, like reversi; else 1)",
               description_ja="開始時に置く各色のピース数（既定：2人・1人1色は2、それ以外は1）"),
        Option("layout", "random", "choice", choices=LAYOUTS,
               description="start layout: random (seeded), windmill 風車, butterfly 蝶々",
               description_ja="開始配置：ランダム（シード）、風車、蝶々"),
        Option("white_any_time", None, "bool", nullable=True,
               description="white sandwiching allowed at any time (default: on for 2 players "
                           "with 1 colour each)",
               description_ja="白ではさむことをいつでも認める（既定：2人・1人1色のとき有効）"),
        Option("lost_colour", "white", "choice", choices=("white", "pass"),
               description="a colour with no piece face up plays white (children's rule) or "
                           "passes (adults' rule)", description_ja="色を失ったとき"),
        Option("end_at_dead_board", True, "bool",
               description="end the game as soon as no piece shows a colour (nothing can "
                           "flip any more: the result is fixed, 0 for everyone); off: play "
                           "such a board out, as rules versions 1-2 did",
               description_ja="どのピースも色を見せなくなったら終了（もう何も裏返せず結果は"
                              "全員0で確定）。無効にすると最後まで置き切る（ルール版1〜2）"),
        Option("memory_aid", False, "bool", casual_only=True,
               description="show each player the hidden colour of its own white pieces "
                           "(for young children; never in rated play)",
               description_ja="自分が置いた白いピースの下の色を表示（幼児向け。レーティング対局では使えません）"),
    )
    variants = {
        "4p": {"players": 4},
        "3p": {"players": 3},
        "2p": {"players": 2},
        "2p2c": {"players": 2, "colours": 2},
        "2p2c-adults": {"players": 2, "colours": 2, "lost_colour": "pass"},
        "cross": {"shape": "cross"},
        "windmill": {"layout": "windmill"},
        "butterfly": {"layout": "butterfly"},
    }
    default_level = "2"  # remembers most colours: the game's point, still forgiving
    bot_levels = (
        BotLevel("1", "Lv.1 Goldfish", "remembers nothing; greedy, with a child's random moves",
                 "Lv.1 金魚"),
        BotLevel("2", "Lv.2 Forgetful", "forgets a hidden colour with 15% chance a move; greedy",
                 "Lv.2 うっかり"),
        BotLevel("3", "Lv.3 Attentive", "perfect memory; looks one round ahead", "Lv.3 しっかり"),
        BotLevel("4", "Lv.4 Elephant", "perfect memory; 3-ply search and exact endgame for two "
                 "players, greedy-reply rollouts to the end for more; never settles for a "
                 "dead all-white draw", "Lv.4 象"),
        BotLevel("5", "Lv.5 Owl", "perfect memory; 4-ply search and exact endgame from 8 "
                 "empty cells for two players; for more, rollouts to the end that spend most "
                 "on the close candidates, and an exact ending from 6 empty cells",
                 "Lv.5 フクロウ"),
        BotLevel("6", "Lv.6 Crow", "perfect memory; 5-ply search and exact endgame from 9 "
                 "empty cells for two players; for more, eight times Lv.5's rollouts and a "
                 "reading of each opponent: how predictable its moves have been",
                 "Lv.6 カラス"),
    )

    def num_seats(self, options: JSONMapping) -> int:
        return int(options.get("players") or 4)

    def _check_options(self, options: JSONObject) -> None:
        geo = geometry_for(mask_for(options["shape"], options["mask"]))
        colours = options["players"] * options["colours"]
        share, _ = shares(geo, colours)
        if share < 2:
            raise OptionError(
                f"option 'players'/'colours': {colours} colours need at least {2 * colours} "
                f"cells, and this board has {geo.count}", option="players",
                              why=option_why("option.too_few_cells", option="players",
                                             colours=colours, need=2 * colours, cells=geo.count))
        per = start_pieces(options)
        if share < per + 1:
            raise OptionError(
                f"option 'start_pieces': {per} start pieces leave a colour of {share} pieces "
                "nothing to place; each colour needs at least one piece in hand",
                option="start_pieces",
                              why=option_why("option.start_pieces", option="start_pieces", per=per,
                                             share=share))

    def _initial(self, options: JSONObject, seed: int) -> MemoryMatrixState:
        cfg = config_for(options)
        geo = cfg.geometry
        n = cfg.colours
        share, neutrals = shares(geo, n)
        per = start_pieces(options)
        cells = start_cells(geo, n, neutrals, options["layout"], seed, per)
        ident = tuple(sum(1 << cells[k] for k in range(c, n * per, n)) for c in range(n))
        neutral = sum(1 << i for i in cells[n * per:])
        occ = sum(ident) | neutral
        pos = Pos(occ, sum(ident), ident, neutral, (share - per,) * n, 0)
        return MemoryMatrixState(cfg, pos, options)

    def from_layout(self, rows: Sequence[str], to_move: str, options: JSONMapping
                    | None = None, hand: Sequence[int] | None = None) -> MemoryMatrixState:
        """A hand-made position (for tests and puzzles) in the ``under`` notation: a colour
        letter upper case = face up, lower case = white side up over that colour, ``*`` (or ``W``) a
        neutral piece, ``.`` empty, ``-`` a hole. Hands default to the equal shares."""
        opts = self.validate_options(options)
        cfg = config_for(opts)
        geo = cfg.geometry
        if len(rows) != geo.height or any(len(r) != geo.width for r in rows):
            raise ValueError(f"layout must be {geo.height} rows of {geo.width} characters")
        n = cfg.colours
        ident = [0] * n
        up = neutral = 0
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                i = r * geo.stride + c
                bit = 1 << i
                if (ch == HOLE) != (not bit & geo.valid):
                    raise ValueError(f"{chr(97 + c)}{r + 1}: holes must match the board shape")
                if ch in (HOLE, EMPTY):
                    continue
                if ch == NEUTRAL or ch.upper() == WHITE:
                    neutral |= bit
                    continue
                colour = LETTERS.find(ch.upper())
                if not 0 <= colour < n:
                    raise ValueError(f"{ch!r} is not one of the {n} colours in play")
                ident[colour] |= bit
                if ch.isupper():
                    up |= bit
        share, _ = shares(geo, n)
        if hand is None:
            hand = [max(0, share - ident[c].bit_count()) for c in range(n)]
        turn = LETTERS.find(to_move.upper())
        if not 0 <= turn < n:
            raise ValueError(f"to_move {to_move!r} is not a colour in play")
        occ = sum(ident) | neutral
        # the named colour moves unless it has no piece in hand or the game is over
        turn = rules.next_turn(cfg, occ, up, tuple(ident), tuple(hand), (turn - 1) % n)
        pos = Pos(occ, up, tuple(ident), neutral, tuple(hand), turn)
        return MemoryMatrixState(cfg, pos, opts)

    def from_position(self, position: str, options: JSONMapping | None = None
                      ) -> MemoryMatrixState:
        """:meth:`from_layout` from one line of text: the rows joined by ``/``, a space and
        the colour to move (``"BR./RBR/r*b B"``); hidden colours included (lower case)."""
        rows, _, to_move = position.strip().partition(" ")
        try:
            return self.from_layout(rows.split("/"), to_move or "B", options)
        except ValueError as exc:
            raise OptionError(f"position {position!r}: {exc}", option="position",
                              why=option_why("option.position", option="position",
                                             position=position)) from None

    def render_view(self, view: JSONMapping) -> str:
        from .render import render

        return render(view)


