"""Issue 17 item 8: ONE i18n table. Every word of the browser client lives in
``asobiba/web/js/i18n.js`` (one dictionary per language; a game's own words as
``"<game>.<key>"``) or in a game's own ``words.json`` beside its renderer (issue 26: a game
is one manifest; ``addWords`` files them under ``"<game>.<key>"``); the renderers (each in
its game's folder, ``<package>/web/renderer.js``) hold none.

Three checks: the lint rule that keeps words out of the renderers (``lint/ui-strings.mjs``,
run by ESLint in ``make test``) is shown to catch each kind of stray word; the table holds
every key the renderers ask for, in both languages; and in Chromium, switching the language
on each game page leaves no word of the other language in the board area (texts, names and
titles of the board, its score, rules and legend)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from asobiba.games import available, manifest

from .browser import Server, click_a_move, click_listed, new_game, open_context, wait_turn

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "asobiba" / "web"
#: every registered game with a renderer of its own (plug-ins included) → that file
RENDERER_FILES = {g: Path(str(f)) for g in available()
                  if (f := manifest(g).web_file("renderer.js")) is not None}
RENDERERS = sorted(RENDERER_FILES)
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff66-\uff9f]")


def node(script: str) -> Any:
    """Run an ES module snippet under node (the renderers and the table are plain ES modules;
    the browser globals they touch at load are stubbed) and parse what it prints."""
    out = subprocess.run(["node", "--input-type=module", "-e", script], cwd=ROOT, text=True,
                         capture_output=True, timeout=120, check=True)
    return json.loads(out.stdout)


STUBS = ("globalThis.localStorage = { getItem: () => null, setItem: () => {} };"
         "globalThis.navigator = { languages: ['en'] };")


def table() -> dict[str, dict[str, Any]]:
    return node(STUBS + f"const m = await import({json.dumps((WEB / 'js' / 'i18n.js').as_uri())});"
                "console.log(JSON.stringify(m.STRINGS));")


def every_word() -> dict[str, dict[str, Any]]:
    """The table as a page that loaded every registered game's words sees it: js/i18n.js and
    each game's own ``words.json`` filed as ``addWords`` files them (``"<game>.<key>"``, and
    a code naming the game under itself too; the table wins)."""
    strings = table()
    for game in available():
        own = manifest(game).web_file("words.json")
        for lang, words in (json.loads(own.read_text(encoding="utf-8")) if own else {}).items():
            for key, value in words.items():
                strings[lang].setdefault(f"{game}.{key}", value)
                code = key.partition(":")[2]
                if code.startswith(game) and not re.match(r"[a-z_]", code[len(game):]):
                    strings[lang].setdefault(key, value)
    return strings


# ---- the lint rule ------------------------------------------------------------------------
BAD_RENDERER = """\
import { el, svg } from "../js/util.js";
// 盤 — a comment may say anything
export default {
  seatName(seat, ctx) {
    return "Player one";
  },
  render(view, ctx) {
    const root = svg("svg", { class: "board card down", role: "group", "aria-label": "The board" });
    root.append(svg("text", { class: "coord" }, "★"), svg("title", {}, "Your stone"));
    root.append(el("p", {}, ctx.t("pick_card")), el("p", {}, "黒の番です"));
    root.setAttribute("title", "Pick a card");
    root.textContent = view.over ? "Game over" : `${view.ply}`;
    root.append(el("span", {}, `${view.ply} / 8`));
    return root;
  },
};
"""
# line numbers of BAD_RENDERER that hold a stray word (and no other line)
EXPECTED = {5: "english", 8: "english", 9: "english", 10: "japanese", 11: "english",
            12: "english"}


def eslint(args: list[str], stdin: str | None = None) -> list[dict[str, Any]]:
    out = subprocess.run(["npx", "--no-install", "eslint", "-f", "json", *args], cwd=ROOT,
                         input=stdin, text=True, capture_output=True, timeout=300)
    assert out.stdout.strip(), out.stderr
    return json.loads(out.stdout)


def test_issue17_the_lint_rule_finds_every_kind_of_stray_word_in_a_renderer() -> None:
    """A renderer with visible English (text children, aria-label, title, textContent, a
    returned label) and Japanese anywhere is refused line by line; keys, CSS classes,
    symbols, numbers and comments are not words."""
    [result] = eslint(["--stdin", "--stdin-filename", "asobiba/web/games/zz_stray.js"],
                      BAD_RENDERER)
    found = {m["line"]: ("japanese" if "Japanese" in m["message"] else "english")
             for m in result["messages"] if m.get("ruleId") == "asobiba/ui-strings"}
    assert found == EXPECTED, result["messages"]


def test_issue17_no_renderer_or_page_script_holds_words_of_its_own() -> None:
    """The shipped client passes that rule: no script but js/i18n.js (renderers and the
    pages' scripts alike) holds visible English or any Japanese."""
    results = eslint(["asobiba/web", *(str(f) for f in RENDERER_FILES.values())])
    stray = [(r["filePath"], m["line"], m["message"]) for r in results for m in r["messages"]]
    assert stray == []
    linted = {Path(r["filePath"]).resolve() for r in results}
    assert {f.resolve() for f in RENDERER_FILES.values()} <= linted
    assert {WEB / "js" / f"{n}.js" for n in ("room", "lobby", "replay")} <= linted


# ---- the table ----------------------------------------------------------------------------
def test_issue17_one_table_holds_every_game_word_in_both_languages(tmp_path: Path) -> None:
    """The renderers export no ``strings`` of their own; every ``ctx.t("key")`` a renderer
    makes is ``<game>.key`` (or a platform key) in English AND Japanese; both languages
    hold the same keys, and each game's rules have as many lines in each."""
    strings = every_word()  # with every game's own words.json, as addWords files it
    # the renderers import ../js/util.js as served (/static/games/<id>.js): import copies
    # laid out the same way
    mirror = tmp_path / "static"
    (mirror / "games").mkdir(parents=True)
    (mirror / "js").symlink_to(WEB / "js")
    for game, file in RENDERER_FILES.items():
        (mirror / "games" / f"{game}.js").write_text(file.read_text(encoding="utf-8"),
                                                     encoding="utf-8")
    exported = node(STUBS + "const out = {};" + "".join(
        f"out[{json.dumps(g)}] = Object.keys((await import("
        f"{json.dumps((mirror / 'games' / f'{g}.js').as_uri())})).default);" for g in RENDERERS)
        + "console.log(JSON.stringify(out));")
    assert all("strings" not in keys for keys in exported.values()), exported
    en, ja = strings["en"], strings["ja"]
    assert set(en) == set(ja), sorted(set(en) ^ set(ja))
    missing = []
    for game in RENDERERS:
        source = RENDERER_FILES[game].read_text(encoding="utf-8")
        keys = set(re.findall(r"""ctx\.t\(\s*["']([^"']+)["']""", source))
        assert keys, f"{game}: the check must see the renderer's keys"
        for key in keys:
            for lang, words in (("en", en), ("ja", ja)):
                if f"{game}.{key}" not in words and key not in words:
                    missing.append((game, lang, key))
        rules_en, rules_ja = en.get(f"{game}.rules"), ja.get(f"{game}.rules")
        assert isinstance(rules_en, list) and rules_en, game
        assert isinstance(rules_ja, list) and len(rules_ja) == len(rules_en), game
        for k in (k for k in en if k.startswith(f"{game}.") and k != f"{game}.rules"):
            words = re.sub(r"\{\w+\}", "", en[k])  # an entry's own words, not its {slots}
            assert JAPANESE.search(ja[k]) or not re.search(r"[A-Za-z]{3}", words), \
                f"{k}: the Japanese entry is not Japanese"
            assert not JAPANESE.search(en[k]), f"{k}: the English entry holds Japanese"
    assert missing == []


# ---- the switch, in Chromium --------------------------------------------------------------
GAMES = [
    # game, seats, lobby options, how to make the first move
    ("reversi", ["you", "bot:1"], {}, "board"),
    ("reverstargo", ["you", "bot:beginner"], {}, "board"),
    ("flipflop", ["you", "bot:1"], {}, "list"),
    ("memory_matrix", ["you", "bot:1"], {"players": 2}, "board"),
    ("algo", ["you", "bot:1"], {}, "list"),
    ("patapata", ["you", "bot:greedy"], {"players": 2}, "list"),
]

# the board area's words: every visible text, and every name and title a screen reader or a
# pointer shows (aria-label, title, SVG <title>), of the board, score, rules and legend
BOARD_WORDS = """() => {
  const out = [];
  for (const id of ['board', 'score-panel', 'rules-panel', 'legal']) {
    const box = document.getElementById(id);
    if (!box || box.hidden) continue;
    const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) {
      const text = walk.currentNode.textContent.trim();
      const parent = walk.currentNode.parentElement;
      if (text && parent && (parent.closest('svg') || parent.getClientRects().length)) out.push(text);
    }
    for (const el of box.querySelectorAll('[aria-label], [title]')) {
      for (const a of ['aria-label', 'title']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
    }
  }
  return out;
}"""

ENGLISH_ENTRIES = """async () => {
  const {STRINGS} = await import('/static/js/i18n.js');
  const out = [];
  for (const k of Object.keys(STRINGS.en)) {
    const en = STRINGS.en[k], ja = STRINGS.ja[k];
    if (Array.isArray(en)) en.forEach((line, i) => { if (line !== (ja || [])[i]) out.push(line); });
    else if (en !== ja) out.push(en);
  }
  return out.filter((en) => /[A-Za-z]{3}/.test(en.replace(/\\{\\w+\\}/g, '')));
}"""


def english_in(page: Any, words: list[str]) -> list[str]:
    """Words on a Japanese page that are an English entry of the table ({slots} as
    wildcards) or hold an English word of four letters or more (notation like "a1", "CP",
    "B3" or "d3" is not a word)."""
    patterns = [re.compile("^" + re.sub(r"\\\{\w+\\\}", ".*", re.escape(en)) + "$", re.S)
                for en in page.evaluate(ENGLISH_ENTRIES)]
    return [w for w in words
            if re.search(r"[A-Za-z]{4,}", w) or any(p.match(w) for p in patterns)]


@pytest.mark.browser
@pytest.mark.parametrize(("game", "seats", "options", "via"), GAMES, ids=[g[0] for g in GAMES])
def test_issue17_language_switch_leaves_no_word_of_the_other_language_on_the_board(
        browser: Any, server: Server, game: str, seats: list[str], options: dict[str, Any],
        via: str) -> None:
    errors: list[str] = []
    context = open_context(browser, locale="en-US", viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        new_game(page, server.url, game, seats, options)
        wait_turn(page)
        click_a_move(page) if via == "board" else click_listed(page)
        wait_turn(page)
        english = page.evaluate(BOARD_WORDS)
        assert len(english) > 10, english  # the check reads the board's words
        assert [w for w in english if JAPANESE.search(w)] == []
        assert english_in(page, english), "the check sees the English page's words"
        page.click("#lang")
        page.wait_for_function("() => document.documentElement.lang === 'ja'")
        japanese = page.evaluate(BOARD_WORDS)
        assert sum(bool(JAPANESE.search(w)) for w in japanese) > 5, japanese
        assert english_in(page, japanese) == []
        page.click("#lang")
        page.wait_for_function("() => document.documentElement.lang === 'en'")
        again = page.evaluate(BOARD_WORDS)
        assert [w for w in again if JAPANESE.search(w)] == []
        assert sorted(again) == sorted(english)
    finally:
        context.close()
    assert not errors, errors


# ---- issue 26 item 2: every code in both languages ----------------------------------------
def game_codes() -> dict[str, str]:
    """Every code a game can emit, with its English template: the module-level ``*WHY``
    tables of every module under ``asobiba.games`` (a game's ``why()`` looks its code up in
    one, so a code missing from them raises) and the codes all games share."""
    import importlib
    import pkgutil

    import asobiba.games
    from asobiba.core.errors import OPTION_WHY, RECORD_WHY
    from asobiba.core.protocol import CORE_WHY
    from asobiba.games import available, manifest

    codes = {**CORE_WHY, **OPTION_WHY, **RECORD_WHY}  # an option's and a record's codes too
    packages = [asobiba.games] + [importlib.import_module(manifest(g).package)
                                  for g in available()]  # plugged-in games' folders too
    for package in packages:
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                if name.endswith("WHY") and isinstance(value, dict):
                    codes.update(value)
    return codes


def server_codes() -> set[str]:
    """Every code a refusal of the server can carry: each ``ClientError("code", …)`` and
    ``_error(status, "code", …)`` in ``asobiba/server``, and the class code of every error
    the engine raises (a move refused by the rules arrives as ``illegal``, ``malformed``…)."""
    import asobiba.server  # noqa: F401 - the error classes the server defines
    from asobiba.core.errors import AsobibaError

    codes: set[str] = set()
    for path in (ROOT / "asobiba" / "server").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        codes |= set(re.findall(r'ClientError\(\s*"([a-z_]+)"', text))
        codes |= set(re.findall(r'_error\(\s*\d+,\s*"([a-z_]+)"', text))
    todo: list[type[AsobibaError]] = [AsobibaError]
    while todo:
        cls = todo.pop()
        codes.add(cls.code)
        todo.extend(cls.__subclasses__())
    return codes


def end_codes() -> set[str]:
    """The end reasons games reach: random games of every game to their end, a few seeds."""
    import random

    from asobiba.games import all_games

    out = set()
    for game in all_games():
        gid = game.id
        for variant in [{}, *game.variants.values()]:
            for seed in range(6):
                state = game.new_game(dict(variant), seed)
                rng = random.Random(seed)
                for _ in range(3000):
                    if state.is_over:
                        break
                    seat = rng.choice(state.acting_seats)
                    state = state.play(rng.choice(list(state.legal_moves(seat))), seat)
                if state.outcome is not None:
                    assert state.outcome.code, f"{gid}: an end without a code"
                    out.add(state.outcome.code)
    return out


def own_words() -> dict[str, dict[str, Any]]:
    """Every registered game's own words (``words.json`` in its folder, which the page adds
    to the table under the game's id)."""
    from asobiba.games import available, manifest

    out: dict[str, dict[str, Any]] = {"en": {}, "ja": {}}
    for gid in available():
        found = manifest(gid).web_file("words.json")
        if found is not None:
            words = json.loads(found.read_text(encoding="utf-8"))
            for lang in out:
                out[lang].update(words.get(lang, {}))
    return out


def slots(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_issue26_every_code_has_english_and_japanese() -> None:
    """Each code a game emits (a refused move's rule ``why:<code>`` or an end of game
    ``reason:<code>``) and each code a refusal of the server carries (``err:<code>``) has an
    entry in English AND Japanese; the Japanese is Japanese; an entry asks only for
    arguments the code has. Fails on the code before issue 26 (no such entries)."""
    strings = table()
    own = own_words()  # a plugged-in game brings its codes' words in its own folder
    en, ja = {**own["en"], **strings["en"]}, {**own["ja"], **strings["ja"]}
    missing = []
    for code, template in game_codes().items():
        keys = [k for k in (f"why:{code}", f"reason:{code}") if k in en or k in ja]
        if not keys:
            missing.append(code)
        for key in keys:
            for lang, words in (("en", en), ("ja", ja)):
                if key not in words:
                    missing.append(f"{lang} {key}")
                elif not slots(words[key]) <= slots(template):
                    missing.append(f"{lang} {key} asks for {slots(words[key]) - slots(template)}")
            if key in ja:
                assert JAPANESE.search(ja[key]), f"{key}: the Japanese entry is not Japanese"
    for code in server_codes():
        for lang, words in (("en", en), ("ja", ja)):
            if f"err:{code}" not in words:
                missing.append(f"{lang} err:{code}")
        if f"err:{code}" in ja:
            assert JAPANESE.search(ja[f"err:{code}"]), code
    reached = end_codes()
    assert {"flipflop.holds", "reversi.no_moves", "algo.last"} & reached, reached
    missing += [f"reason:{c}" for c in reached if f"reason:{c}" not in en or f"reason:{c}" not in ja]
    assert missing == []
    assert len(game_codes()) > 70 and len(server_codes()) > 50  # the collection sees them


# ---- issue 26 item 1: a game's words live in its own folder --------------------------------
def names_game(key: str, gid: str) -> bool:
    """Whether a key names the game ``gid``: the id as a whole part of it (``reversi.title``,
    ``why:reversi.occupied``, ``pz.set:flipflop5``, ``explorer.g:flipflop-3x3``)."""
    return re.search(rf"(^|[.:_\-]){re.escape(gid)}(?![a-z])", key) is not None


def test_issue26_no_key_of_the_one_table_names_a_single_game() -> None:
    """Every word that belongs to one game (its options, levels, rules, refusal and end
    codes, renderer words, puzzle sets, explorer books) lives in that game's own
    ``words.json``: no key of js/i18n.js names a registered game, so a new game can never
    need an edit there again. Fails on the code before (the table held ~400 such keys)."""
    strings = table()
    games = available()
    assert "reversi" in games and len(games) >= 7  # the six and the plug-in
    named = sorted({(lang, key) for lang, words in strings.items() for key in words
                    for gid in games if names_game(key, gid)})
    assert named == []
    assert names_game("why:reversi.occupied", "reversi")  # the check can see one
    assert names_game("pz.set:flipflop5", "flipflop")
    assert not names_game("reverstargo.title", "reversi")


def test_issue26_every_game_brings_its_words_in_both_languages() -> None:
    """Each registered game has a ``words.json`` beside its renderer, with the same keys in
    English and Japanese; no key in it names another game, and its rule and end codes
    (``why:…``, ``reason:…``) name it (a game's words file is its own)."""
    games = available()
    for gid in games:
        found = manifest(gid).web_file("words.json")
        assert found is not None, f"{gid}: no words.json in its folder"
        words = json.loads(found.read_text(encoding="utf-8"))
        assert set(words) == {"en", "ja"}, gid
        assert words["en"] and set(words["en"]) == set(words["ja"]), \
            (gid, sorted(set(words["en"]) ^ set(words["ja"])))
        for key in words["en"]:
            assert [g for g in games if g != gid and names_game(key, g)] == [], (gid, key)
            # (a legacy "reason:<English sentence>" of a record older than codes is no code)
            if key.startswith(("why:", "reason:")) and " " not in key:
                assert names_game(key, gid), (gid, key)
