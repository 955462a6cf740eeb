"""Chat in Chromium (issue 28 item 4): two players and a spectator in three browser contexts
and an operator at the command line, in English on a desktop and Japanese on a phone; a hidden-information game keeps the
spectators' lines from the players' page; the setting hides every chat; axe finds nothing
serious."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from .browser import Server
from .test_accessibility import axe_source, serious  # noqa: F401 - axe_source is a fixture
from .test_people_browser import person, small_controls

pytestmark = pytest.mark.browser


def new_room(base: str, game: str) -> dict[str, Any]:
    body = json.dumps({"game": game, "seats": [{"kind": "human"}, {"kind": "human"}]}).encode()
    req = urllib.request.Request(f"{base}/api/rooms", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as res:
        return dict(json.loads(res.read()))


def enter(page: Any, base: str, room: dict[str, Any], seat: int | None) -> None:
    frag = "" if seat is None else f"#seat={seat}&key={room['keys'][seat]['key']}"
    page.goto(f"{base}/r/{room['room']}{frag}")
    # the server has answered chat_join: the socket is open and the page reads the chat (a
    # line written before that was dropped with the unopened socket, and the CI saw it)
    page.wait_for_selector("#chat-panel[data-joined=true]", state="attached")


def write(page: Any, tab: str, text: str) -> None:
    page.click(f"#chat-tab-{tab}")
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def shows(page: Any, tab: str, text: str) -> None:
    page.click(f"#chat-tab-{tab}")
    page.wait_for_selector(f"#chat-lines .chat-text:text-is('{text}')")


@pytest.mark.parametrize(("locale", "size"), [("en-US", "desktop"), ("ja-JP", "phone")])
def test_players_and_a_spectator_chat_in_their_tabs(browser: Any, server: Server,
                                                    axe_source: str,  # noqa: F811
                                                    locale: str, size: str) -> None:
    tag = locale[:2] + size[0]
    ann = person(browser, server.url, f"cann{tag}", locale, size)
    ben = person(browser, server.url, f"cben{tag}", locale, size)
    cat = person(browser, server.url, f"ccat{tag}", locale, size)
    room = new_room(server.url, "reversi")  # casual: the players' chat is on
    enter(ann, server.url, room, 0)
    enter(ben, server.url, room, 1)
    enter(cat, server.url, room, None)
    write(ann, "players", "good luck <b>")
    for page in (ann, ben, cat):
        shows(page, "players", "good luck <b>")
    write(cat, "spectators", "nice")
    shows(ann, "spectators", "nice")  # casual, nothing hidden: players read spectators
    # the spectator cannot write as a player; the note says so in the reader's language
    cat.click("#chat-tab-players")
    note = cat.inner_text("#chat-note")
    assert ("Only the players" in note) if locale == "en-US" else ("対局者だけ" in note)
    # a refused line is told in the reader's language
    write(ben, "players", "ｆｕｃｋ")
    ben.wait_for_selector(".chat-error:not(:empty)")
    err = ben.inner_text(".chat-error")
    assert ("does not allow" in err) if locale == "en-US" else ("使えない言葉" in err)
    # the operator (the CLI, on the server's database) mutes the spectator: his next line
    # is refused on his open page, in his language, and the audit has who and why
    from typer.testing import CliRunner

    from asobiba.cli.main import app as cli

    where = (["--db", server.db_url] if server.db_url
             else ["--data-dir", str(server.data_dir)])
    muted = CliRunner().invoke(cli, ["admin", "mute", f"ccat{tag}", "--hours", "1",
                                     "--reason", "spoilers", "--by", "op", *where])
    assert muted.exit_code == 0, muted.output
    write(cat, "spectators", "and again")
    cat.wait_for_selector(".chat-error:not(:empty)")
    err = cat.inner_text(".chat-error")
    assert ("muted until" in err) if locale == "en-US" else ("までチャットが制限" in err), err
    audit = CliRunner().invoke(cli, ["admin", "audit", f"ccat{tag}", *where])
    assert audit.exit_code == 0 and "spoilers" in audit.output, audit.output
    assert serious(ann, axe_source) == []
    assert serious(cat, axe_source) == []
    assert small_controls(ann, "#chat-panel button, #chat-panel input") == []
    # keyboard: the tabs move with the arrow keys
    ann.focus("#chat-tab-players")
    ann.keyboard.press("ArrowRight")
    assert ann.evaluate("document.activeElement.id") == "chat-tab-spectators"
    # collapse for this room, then the setting that hides every chat
    ann.click("#chat-collapse")
    assert ann.is_hidden("#chat-lines")
    ben.evaluate("""() => { const s = JSON.parse(localStorage.getItem('asobiba.settings')
        || '{}'); s.chat = 'off'; localStorage.setItem('asobiba.settings', JSON.stringify(s)); }""")
    ben.evaluate("fetch('/api/account/settings').then(r => r.json()).then(b => fetch("
                 "'/api/account/settings', {method: 'PUT', headers: {'Content-Type': "
                 "'application/json'}, body: JSON.stringify({settings: {...b.settings, "
                 "chat: 'off'}})}))")
    ben.reload()
    ben.wait_for_selector("#chat-panel", state="attached")
    ben.wait_for_function("() => document.getElementById('chat-panel').hidden")
    for ctx_page in (ann, ben, cat):
        ctx_page.context.close()


def test_a_hidden_information_game_keeps_spectators_from_the_players_page(
        browser: Any, server: Server, axe_source: str) -> None:  # noqa: F811
    """... and once the game is over its replay shows both channels, to anyone."""
    ann = person(browser, server.url, "hann", "ja-JP", "phone")
    cat = person(browser, server.url, "hcat", "ja-JP", "phone")
    room = new_room(server.url, "algo")  # Algo hides information
    enter(ann, server.url, room, 0)
    enter(cat, server.url, room, None)
    write(cat, "spectators", "ann has 5")
    shows(cat, "spectators", "ann has 5")
    write(ann, "players", "yoroshiku")
    shows(cat, "players", "yoroshiku")  # after the spectator's line reached the server
    ann.click("#chat-tab-spectators")
    assert "終了後" in ann.inner_text("#chat-note")
    assert ann.locator("#chat-lines .chat-line").count() == 0
    ann.on("dialog", lambda d: d.accept())
    ann.click("#resign")
    ann.wait_for_selector("body[data-status=finished]")
    for page in (ann, cat):
        page.goto(f"{server.url}/replay?room={room['room']}")
        page.wait_for_selector("#replay-chat[data-ready=true]")
        assert page.locator("#replay-chat .chat-text").all_inner_texts() == [
            "ann has 5", "yoroshiku"]
        first, second = page.locator("#replay-chat .chat-line").all_inner_texts()
        assert "hcat（観戦者）" in first and "hann（1番席）" in second
        assert page.inner_text("#replay-chat h2") == "対局中のチャット"
    assert serious(cat, axe_source) == []
    for page in (ann, cat):
        page.context.close()


def test_a_line_relayed_before_the_join_answer_is_kept_and_the_form_waits(
        browser: Any, server: Server) -> None:
    """The room's chat module alone, fed the messages of a race the server allows: a line
    stored after chat_join read the stored lines is relayed before that answer arrives. The
    answer must not wipe it; and there is no form to type into before the answer."""
    from .browser import open_context

    page = open_context(browser).new_page()
    page.goto(f"{server.url}/")
    got = page.evaluate("""async () => {
      const {roomChat} = await import('/static/js/chat.js');
      const host = document.createElement('section');
      document.body.append(host);
      const sent = [];
      let id = 0;
      const chat = roomChat(host, 'race-room', (m) => { m.id = ++id; sent.push(m.type); });
      const formBefore = host.querySelector('form').hidden;
      chat.opened();
      const line = (n, text) => ({id: n, channel: 'players', author: 'ann', seat: 0, text});
      chat.handle({type: 'chat', line: line(2, 'second')});
      chat.handle({type: 'chat_lines', lines: [line(1, 'first')], players_chat: true,
                   signed_in: true, player: true, spectators_hidden: false});
      return {sent, formBefore, formAfter: host.querySelector('form').hidden,
              joined: host.dataset.joined,
              texts: [...host.querySelectorAll('.chat-text')].map((e) => e.textContent)};
    }""")
    assert got["sent"] == ["chat_join"]
    assert got["formBefore"] is True and got["formAfter"] is False
    assert got["joined"] == "true"
    assert got["texts"] == ["first", "second"]
    page.context.close()
