"""Algo (アルゴ): the deduction card game, with every variant of the seed as options."""

from __future__ import annotations

from ...core import BotLevel, Game, Option, OptionError, Rng
from ...core.errors import option_why
from ...core.jsontypes import JSONMapping, JSONObject
from .cards import COLOUR_LETTERS, COLOUR_NAMES, deck, is_joker
from .state import OVER, AlgoState, Slot, seat_letter
from .views import algo_view


def default_hand(players: int, mode: str) -> int:
    """Cards dealt per player: pair play 6 (seed); 2–3 players 4, 4 players 3 (published
    convention); 5–6 players 1 (seed: 「１人１枚」); 7 or more 3 (seed: 「１人に３枚ずつ」)."""
    if mode == "pair":
        return 6
    if players <= 3:
        return 4
    if players == 4:
        return 3
    if players <= 6:
        return 1
    return 3


def default_sets(players: int) -> int:
    """Two sets (48 cards) for 7 or more players (seed), else one."""
    return 2 if players >= 7 else 1


def check_pile(opts: JSONMapping, total: int) -> None:
    """The basic game needs a pile: every turn begins "draw one card from the pile"
    (REFERENCE, basic rules) and the seed's variants deal "the rest" as the pile (5–6
    players 「残りを山にして真中に置き」, two sets for 7+). Only pair play is dealt without one
    (seed 「４人に６枚ずつ配るので「山」に積むカードはありません」). Options that deal every card
    in the basic game are refused (docs/rules/algo.md § 2)."""
    if opts["mode"] == "pair":
        return
    dealt = opts["hand"] * opts["players"]
    if dealt >= total:
        most = (total - 1) // opts["players"]
        sets_hint = ", or use two sets (sets=2)" if opts["sets"] == 1 else ""
        raise OptionError(
            f"option 'hand': {opts['hand']} cards each for {opts['players']} players deal all "
            f"{total} cards and leave no pile, but the basic game begins every turn by drawing "
            f"from the pile (rule: the pile; only pair play is dealt without one); deal at "
            f"most {most} each{sets_hint}", option="hand",
                          why=option_why("option.no_pile", option="hand", hand=opts["hand"],
                                         players=opts["players"], total=total, most=most))


class AlgoGame(Game):
    id = "algo"
    title_en = "Algo"
    title_ja = "アルゴ"
    summary = ("Deduce your opponents' hidden numbered cards from their sorted rows; a miss "
               "reveals your own card. Basic game, pair play, 5–8 players, jokers, two sets, "
               "three colours, chip scoring.")
    summary_ja = "相手の伏せたカードの数字を、並び順から推理して当てる。外すと自分のカードが1枚表に。基本ルール、ペア戦、5〜8人、ジョーカー、2セット、3色、チップ得点。"
    draws = False  # someone always keeps the last face-down card: no draw offers
    rules_version = 1
    perfect_information = False
    chance = True
    min_seats = 2
    max_seats = 8
    options = (
        Option("players", 2, "int", minimum=2, maximum=8, description="number of players",
               description_ja="人数"),
        Option("mode", "basic", "choice", ("basic", "pair"),
               description="basic game, or pair play (4 players, partners opposite)",
               description_ja="基本ルール / ペア戦"),
        Option("sets", None, "choice", (1, 2), nullable=True,
               description="card sets (default: 2 for 7 or more players, else 1)",
               description_ja="カードのセット数（既定：7人以上は2セット、それ以外は1セット）"),
        Option("colours", 2, "choice", (2, 3),
               description="2 colours (black, white) or 3 (black, white, red: 36 cards)",
               description_ja="2色（黒・白）または3色（黒・白・赤の36枚）"),
        Option("jokers", False, "bool", description="both 6s are jokers (ジョーカー)",
               description_ja="2枚の6をジョーカーにする"),
        Option("chips", False, "bool", description="chip scoring: scores are chips",
               description_ja="チップで得点をつける"),
        Option("hand", None, "int", minimum=1, maximum=12, nullable=True,
               description="cards dealt to each player (default by player count)",
               description_ja="配る枚数（既定は人数で決まる）"),
        Option("first", 0, "int", minimum=0, maximum=7,
               description="the seat that starts (the dealer, 親)",
               description_ja="最初の手番（親）", seat=True),
        Option("aid", False, "bool", casual_only=True,
               description="deduction aid for learners: each view carries its seat's exact "
                           "odds (keep off in rated games)",
               description_ja="推理の手助け：自分から見た正確な確率を表示（レーティング対局では使えません）"),
    )
    variants = {
        "basic": {},
        "pair": {"mode": "pair", "players": 4},
        "5-players": {"players": 5},
        "6-players": {"players": 6},
        "7-players": {"players": 7},
        "jokers": {"jokers": True},
        "two-sets": {"sets": 2},
        "three-colours": {"colours": 3},
        "chips": {"chips": True},
    }
    default_level = "2"  # level 1 guesses at random; 2 counts like a beginner who thinks
    bot_levels = (
        BotLevel("1", "Lv.1 Random", "random plausible names", "Lv.1 ランダム"),
        BotLevel("2", "Lv.2 Counter", "counts candidates between known neighbours (published)",
                 "Lv.2 候補数え"),
        BotLevel("3", "Lv.3 Exact", "exact inference, greedy", "Lv.3 厳密推論"),
        BotLevel("4", "Lv.4 Master", "exact inference; weighs what a miss reveals", "Lv.4 達人"),
        BotLevel("5", "Lv.5 Search", "information-set MCTS over deals drawn from exact inference "
                 "(about a second per attack); as strong as Master in 400 measured games",
                 "Lv.5 探索"),
        BotLevel("6", "Lv.6 Strategist", "weighs each guess and each stay by its chance of "
                 "coming first, and reads what the others' names say about their cards; "
                 "won 34 % of 400 four-player games against three Masters (parity 25 %)",
                 "Lv.6 策士"),
    )

    def validate_options(self, raw: JSONMapping | None = None) -> JSONObject:
        opts = super().validate_options(raw)
        if opts["sets"] is None:
            opts["sets"] = default_sets(opts["players"])
        if opts["hand"] is None:
            opts["hand"] = default_hand(opts["players"], opts["mode"])
        total = 12 * opts["colours"] * opts["sets"]
        if opts["hand"] * opts["players"] > total:
            raise OptionError(
                f"option 'hand': {opts['hand']} cards for {opts['players']} players needs "
                f"more than the {total} cards in play", option="hand",
                              why=option_why("option.deal_over", option="hand", hand=opts["hand"],
                                             players=opts["players"], total=total))
        check_pile(opts, total)
        return opts

    def _check_options(self, options: JSONObject) -> None:
        if options["mode"] == "pair" and options["players"] != 4:
            raise OptionError("option 'players': pair play needs exactly 4 players",
                              option="players",
                              why=option_why("option.must_be", option="players", value=4,
                                             other="mode", when="pair"))
        if options["first"] >= options["players"]:
            raise OptionError(f"option 'first': seats run 0..{options['players'] - 1}",
                              option="first",
                              why=option_why("option.range", option="first", min=0,
                                             max=options["players"] - 1, value=options["first"]))

    def _initial(self, options: JSONObject, seed: int) -> AlgoState:
        cards = deck(options["colours"], options["sets"])
        Rng(seed, "algo", "deal").shuffle(cards)
        return deal_from(options, cards)

    def render_view(self, view: JSONMapping) -> str:
        return render(view)


def deal_from(options: JSONMapping, cards: list[int]) -> AlgoState:
    """The start state for a deck in this order: hands first, the rest is the pile (pair
    play: no pile, undealt cards are set aside). Tests use it to build exact deals."""
    n, hand, c, jokers = options["players"], options["hand"], options["colours"], options[
        "jokers"]
    rows: list[tuple[Slot, ...]] = []
    setup: list[tuple[int, ...]] = []
    next_id = 0
    for seat in range(n):
        dealt = sorted(cards[seat * hand:(seat + 1) * hand])
        normal = [k for k in dealt if not is_joker(k, c, jokers)]
        setup.append(tuple(k for k in dealt if is_joker(k, c, jokers)))
        row = []
        for k in normal:
            row.append((next_id, k, False))
            next_id += 1
        rows.append(tuple(row))
    pile = () if options["mode"] == "pair" else tuple(cards[n * hand:])
    st = AlgoState(options, tuple(rows), pile, 0, int(options["first"]), "setup",
                   fails=(0,) * next_id, next_id=next_id, setup=tuple(setup))
    return st._next_setup(int(options["first"]))


def event_text(e: JSONMapping) -> str:
    """One public event in words."""
    who = seat_letter(e["seat"])
    kind = e["event"]
    if kind == "attack":
        return (f"{who} named {e['name']} for {seat_letter(e['target'])}{e['pos']}: "
                + ("hit" if e["hit"] else "miss"))
    if kind == "insert":
        if e["up"]:
            return f"{who} put {e['number']} face up at {e['pos']}"
        return f"{who} kept a card face down at {e['pos']}"
    if kind == "draw":
        return f"{who} drew a {COLOUR_NAMES[COLOUR_LETTERS.index(e['colour'])]} card"
    if kind == "out":
        return f"{who} is out"
    if kind == "show":
        return f"{who} showed a card to its partner"
    if kind == "stay":
        return f"{who} stayed"
    return ""


def render(view: JSONMapping) -> str:
    """Rows as ``[b3] [w?]``: up cards plain, known face-down cards in parentheses."""
    view = algo_view(view)
    lines = []
    me = view.get("seat")
    for owner, row in enumerate(view["rows"]):
        cells = []
        for slot in row:
            num = slot.get("number")
            text = f"{slot['colour']}{'?' if num is None else num}"
            cells.append(f"[{text}]" if slot["up"] else f"({text})")
            if slot.get("not"):
                cells[-1] += "≠" + ",".join(map(str, slot["not"]))
        mark = ">" if owner == view["turn"] and view["phase"] != OVER else " "
        tag = " (you)" if owner == me else ""
        out = " out" if owner in view["out"] else ""
        lines.append(f"{mark}{seat_letter(owner)}{tag}{out}: " + " ".join(cells))
    pile = view["pile"]
    lines.append(f"pile: {pile['size']} " + " ".join(
        f"{k}{v}" for k, v in pile["colours"].items()))
    hand = view.get("hand")
    if hand:
        lines.append(f"attack card: {hand['colour']}{hand.get('number', '?')}")
    p = view["placing"]
    if p:
        lines.append(f"placing: {p['colour']}{p.get('number', '?')}")
    recent = [event_text(e) for e in view.get("log", [])[-6:]]
    if recent:
        lines.append("recent: " + " · ".join(t for t in recent if t))
    lines.append(f"phase: {view['phase']}")
    aid = view.get("aid")
    if aid:
        for sid, probs in aid.items():
            best = max(probs.items(), key=lambda kv: kv[1])
            lines.append(f"aid: card #{sid} is {best[0]} with {best[1]:.0%}")
    return "\n".join(lines)


GAME = AlgoGame()
AlgoState.game = GAME
