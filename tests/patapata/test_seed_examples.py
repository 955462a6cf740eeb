"""The seed's worked examples (5. ＜例１＞ ＜例２＞) replayed on course ⚀⚁, whose first two
tasks the project drew to match them: task 1 "××/〇■", task 2 "〇〇 /  ■×"."""

from __future__ import annotations

from asobiba.games.patapata.game import GAME, PatapataState
from asobiba.games.patapata.scoring import largest_visible_group


def example1() -> PatapataState:
    """＜例１＞: nothing is written yet, so all four marks are written, on the right side,
    in the task's own orientation; the pattern appears and the task is cleared."""
    s = GAME.new_game({"course": "1"}, 0)
    assert isinstance(s, PatapataState)
    assert s.task == "XX/OB"
    for move in ("write e2X", "write f2X", "write e3O"):
        s = s.play(move, 0)
        assert s.round == 0
    s = s.play("write f3B", 0)
    assert s.round == 1, "the pattern appeared, so task 1 is cleared"
    return s


def test_seed_example_1_four_writes_clear_the_first_task() -> None:
    s = example1()
    assert s.sheets[0].history == ("clear e2X f2X e3O f3B",)


def test_seed_example_2_simple_writes_clear_but_leave_the_squares_apart() -> None:
    """例2: 空いている場所に単純にマークを４つ『書く』事でもクリアできます ... 〇が3つ繋がって
    いるのは良いですが、２つの■が遠く離れて配置されてしまっています。"""
    s = example1()
    assert s.task == "OO./.BX"
    simple = []
    for text in s.legal_moves(0).texts():
        if text.startswith("clear") and len(text.split()) == 5:
            marks = s.play(text, 0).sheets[0].marks
            groups = [largest_visible_group(m) for m in marks]
            if groups[0] == 3 and groups[2] == 1:
                simple.append(text)
    assert simple


def test_seed_example_2_reuse_a_mark_after_switching_and_rotating() -> None:
    """例2: 右側の上から2番目のスイッチを左側に倒し、用紙を時計回りに90度回転させ、3つの
    マークを書きこみます。既に書かれている〇も含め、お題と同じ並びが出現しました。
    そして「〇２つ、×3つ、■2つが繋がった配置」となっています。"""
    s = example1()
    s = s.play("switch 2R", 0)  # the second switch from the top on the right, laid left
    s = s.play("rotate 90", 0)  # turn the sheet 90° clockwise
    assert s.sheets[0].switches == 1 << 3 and s.sheets[0].rotation == 1
    for move in ("write f1X", "write g2O"):
        s = s.play(move, 0)
        assert s.round == 1
    s = s.play("write h2B", 0)
    assert s.round == 2, "with the 〇 already on e3 the pattern appeared: cleared"
    sheet = s.sheets[0]
    assert sheet.history[-1] == "clear f1X g2O h2B"  # three writes; e3's 〇 reused
    assert [largest_visible_group(m) for m in sheet.marks] == [2, 3, 2]
    # the same clear is one move for bots and the CLI
    t = example1()
    assert t.play("clear f1X g2O h2B", 0).sheets[0].marks == sheet.marks
