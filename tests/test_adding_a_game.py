"""The worked example of docs/ADDING_A_GAME.md, High Swap (docs/examples/high_swap.py), and the guide itself.

The conformance suite runs every one of its checks on the example (``test_conformance.GAMES`` includes it);
here: the rule scenarios, the terminal, the browser's API, and the guide's code staying the file's code.
"""

from __future__ import annotations

import doctest
import json
import re
import warnings

import pytest
from typer.testing import CliRunner

import boardlab
import test_conformance
from boardlab.cli.main import load_commands
from boardlab.cli.render import scene_text
from boardlab.core.constants import CHANCE, TERMINAL
from boardlab.core.errors import IllegalActionError
from boardlab.core.scene import check_scene
from boardlab.core.wording import with_refs
from example_games import EXAMPLES, ROOT, load_example, rules_document
from state_checks import fingerprint

hs = load_example("high_swap")
GUIDE = ROOT / "docs" / "ADDING_A_GAME.md"
EXAMPLE = EXAMPLES / "high_swap.py"


def card(value: int, suit: str) -> int:
    return 2 * (value - 1) + hs.SUITS.index(suit)


def discard(c: int) -> int:
    return boardlab.make("high-swap").action_space.encode("discard", c)


def dealt(*cards: int, top_value: int = 6) -> boardlab.State:
    """A game after the deal of §3: Orange's two cards, Blue's two, then the card turned up (in deal order)."""
    o1, o2, b1, b2, up = cards
    s = boardlab.make("high-swap", top_value=top_value).new_initial_state()
    for c in (o1, b1, o2, b2, up):  # §3.1: Orange first, one card at a time
        s.apply_action(c)
    return s


def act(s: boardlab.State, label: str) -> None:
    s.apply_action(s.string_to_action(None, label))


# -- the example is a game module like any other, checked by the conformance suite, not registered -------------


def test_the_example_is_checked_like_a_registered_game_but_not_listed() -> None:
    assert "high-swap" in test_conformance.GAMES  # every conformance check runs on it
    assert "high-swap" not in boardlab.games()  # the lobby, `boardlab list` and the browser tests do not see it
    assert hs.GAME_CLASS is hs.HighSwapGame and hs.HighSwapGame.id == "high-swap" and EXAMPLE.stem == "high_swap"
    assert rules_document("high-swap").exists() and rules_document("radius") == ROOT / "docs/rules/radius.md"
    assert doctest.testmod(hs).failed == 0


def test_the_example_fills_only_hooks() -> None:
    """What the guide says a game writes: hooks, and no public method of the core but the optional ones."""
    public = {n for n, v in vars(boardlab.State).items() if not n.startswith("_") and callable(v)}
    mine = public & set(vars(hs.HighSwapState))
    assert mine == {"current_player", "returns", "observation"}


# -- rule scenarios ---------------------------------------------------------------------------------------


def test_the_deal_hides_each_hand_from_the_other_player() -> None:
    """§3.1: two cards each, face down, Orange first; §3.2: the next card starts the pile, face up; §3.3."""
    s = dealt(card(5, "hearts"), card(2, "spades"), card(6, "hearts"), card(1, "hearts"), card(3, "spades"))
    assert s.current_player() == 0 and s.move_number() == 5
    orange, blue, spectator = s.observation(0), s.observation(1), s.observation(None)
    assert orange["hand"] == [card(2, "spades"), card(5, "hearts")] and blue["hand"] == [
        card(1, "hearts"),
        card(6, "hearts"),
    ]
    assert spectator["hand"] is None and orange["pile"] == blue["pile"] == [card(3, "spades")]
    assert [d["text"] for d in s.move_log(1)][:2] == ["dealt a card to Orange", "dealt the 6 of hearts to Blue"]
    assert "5 of hearts" not in str(s.move_log(1)) + str(s.scene(1)) + str(s.move_log(None)) + str(s.scene(None))
    assert [d["text"] for d in s.move_log(None)][4] == "turned up the 3 of spades"


def test_a_turn_is_a_draw_then_a_discard_and_refusals_change_nothing() -> None:
    """§4.1: stand, or take the deck's or the pile's top card; §4.2: then discard one of three."""
    s = dealt(card(5, "hearts"), card(2, "spades"), card(6, "hearts"), card(1, "hearts"), card(3, "spades"))
    before = fingerprint(s)
    with pytest.raises(IllegalActionError, match=r"first draw a card or stand \(§4.1\)"):
        s.apply_action(discard(card(2, "spades")))
    assert fingerprint(s) == before
    act(s, "draw from the discard pile")  # the 3 of spades, in public
    assert s.observation(0)["hand"] == [card(2, "spades"), card(3, "spades"), card(5, "hearts")]
    assert s.observation(None)["pile"] == [] and s.undo_point(0) == 5
    assert "stand" not in [label for _, label in s.legal_moves()]
    with pytest.raises(IllegalActionError, match=r"only a card in your hand \(§4.2\)"):
        s.apply_action(discard(card(6, "hearts")))  # Blue's card
    act(s, "discard 2 of spades")
    assert s.current_player() == 1 and s.observation(None)["pile"] == [card(2, "spades")]
    act(s, "draw from the deck")  # §4.1: a blind draw is a chance step seen only by Blue
    assert s.current_player() == CHANCE and s.undo_point(1) == 7
    s.apply_action(card(4, "spades"))
    assert s.undo_point(1) is None  # never back across a chance step
    log = s.move_log(0)
    assert log[-1]["text"] == "dealt a card to Blue" and s.move_log(1)[-1]["text"] == "dealt the 4 of spades to Blue"


def test_the_showdown_compares_totals_and_equal_totals_draw() -> None:
    """§5.1: after Blue's turn both hands are shown; §5.2: the higher total wins, equal totals draw."""
    s = dealt(card(5, "hearts"), card(2, "spades"), card(6, "hearts"), card(1, "hearts"), card(3, "spades"))
    act(s, "stand")
    act(s, "stand")
    assert s.current_player() == TERMINAL and s.returns() == [0.0, 0.0]  # 7 against 7
    assert s.observation(1)["shown"] == [[card(2, "spades"), card(5, "hearts")], [card(1, "hearts"), card(6, "hearts")]]
    last = s.move_log(None, reveal=False)[-1]["text"]
    assert last == "stands; Orange shows 2 of spades and 5 of hearts; Blue shows 1 of hearts and 6 of hearts"
    s = dealt(card(5, "hearts"), card(2, "spades"), card(6, "hearts"), card(1, "hearts"), card(3, "spades"))
    act(s, "stand")
    act(s, "draw from the discard pile")
    act(s, "discard 1 of hearts")  # Blue: 6 + 3 = 9 against 7
    assert s.returns() == [-1.0, 1.0] and s.scene(0)["prompt"] == "Blue wins, 9 to 7."


def test_the_option_sets_the_deck() -> None:
    """§1: ``top_value`` cards in each of two suits."""
    for top, n in ((5, 10), (6, 12), (8, 16)):
        s = boardlab.make("high-swap", top_value=top).new_initial_state()
        assert len(s.chance_outcomes()) == n and abs(sum(p for _, p in s.chance_outcomes()) - 1) < 1e-12
    with pytest.raises(ValueError, match="top_value"):
        boardlab.make("high-swap", top_value=7)


# -- playable: the terminal and the browser's API, with no code of their own for it -----------------------------


def test_the_terminal_draws_cards_and_backs() -> None:
    s = dealt(card(5, "hearts"), card(2, "spades"), card(6, "hearts"), card(1, "hearts"), card(3, "spades"))
    scene = s.scene(0)
    assert check_scene(scene, s.legal_moves(0)) == []
    text = scene_text(scene, [label for _, label in s.legal_moves(0)])
    assert "Your hand: [2♠] [5♥]" in text and "Blue's hand: [▒▒] [▒▒]" in text and "pile (top last): [3♠]" in text
    assert "Moves (3): draw from the deck, draw from the discard pile, stand" in text
    hand = next(z for z in scene["zones"] if z["id"] == "hand1")
    assert hand["owner"] == 1 and all(i["face_down"] for i in hand["items"])  # backs in Blue's colour
    assert {t["label"]: t["at"] for t in scene["targets"]} == {
        "draw from the deck": "deck0",
        "draw from the discard pile": f"card{card(3, 'spades')}",
    }


def test_boardlab_play_plays_it_to_the_end(tmp_path, monkeypatch) -> None:
    """``boardlab play high-swap`` (in this process, where the example is registered), typed moves and all."""
    monkeypatch.chdir(tmp_path)  # the command offers to save the record at the end (declined here)
    result = CliRunner().invoke(
        load_commands(), ["play", "high-swap", "--seed", "5"], input="no such move\nwhy stand\nstand\n\n"
    )
    out = result.output
    assert result.exit_code == 0, out
    assert "Your hand:" in out and "Draw from the deck or the discard pile, or stand." in out
    assert re.search(r"(Orange|Blue) wins, \d+ to \d+\.|Draw at \d+\.", out)
    assert "stand is legal now" in out and list(tmp_path.iterdir()) == []


def test_the_server_serves_its_views(tmp_path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from boardlab.server import Settings, create_app

    app = create_app(Settings(db_url=f"sqlite:///{tmp_path}/t.db", ai_workers=1, ai_delay=0.0))
    with TestClient(app) as c:
        r = c.post("/api/tables", json={"game": "high-swap", "mode": "hotseat", "seed": 3})
        assert r.status_code == 201, r.text
        t = r.json()
        view = c.get(f"/api/tables/{t['id']}", headers={"Authorization": f"Bearer {t['tokens']['0']}"}).json()
        zones = {z["id"]: z for z in view["scene"]["zones"]}
        assert all(not i["face_down"] for i in zones["hand0"]["items"]) and all(
            i["face_down"] for i in zones["hand1"]["items"]
        )
        blue = c.get(f"/api/tables/{t['id']}", headers={"Authorization": f"Bearer {t['tokens']['1']}"}).json()
        secret = [i["label"] for i in next(z for z in blue["scene"]["zones"] if z["id"] == "hand1")["items"]]
        assert secret and not any(label in json.dumps(view) for label in secret)
        assert [text for _, text in view["log"]][1::2] == ["dealt a card to Blue"] * 2  # the core's log, Orange's view


# -- the guide ----------------------------------------------------------------------------------------------


def guide_blocks(kind: str = "python") -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", GUIDE.read_text(), flags=re.S)


def test_the_guides_code_is_the_files_code() -> None:
    """Every ```python block of the guide that starts ``# <file>`` is in that file verbatim."""
    quoted: dict[str, int] = {}
    for block in guide_blocks():
        first, rest = block.split("\n", 1)
        if first.startswith("# ") and (ROOT / first[2:]).is_file():
            assert rest in (ROOT / first[2:]).read_text(), f"the guide quotes code that is not in {first[2:]}:\n{rest}"
            quoted[first[2:]] = quoted.get(first[2:], 0) + 1
    assert quoted["docs/examples/high_swap.py"] >= 10 and quoted["tests/test_adding_a_game.py"] >= 1


def test_the_guides_terminal_picture_and_refusal_are_what_the_game_shows() -> None:
    s = dealt(card(5, "hearts"), card(2, "spades"), card(6, "hearts"), card(1, "hearts"), card(3, "spades"))
    (picture,) = guide_blocks("text")
    assert picture.strip() in scene_text(s.scene(0), [label for _, label in s.legal_moves(0)])
    quoted = "discard 2 of spades is not legal: first draw a card or stand (§4.1)"
    assert quoted in GUIDE.read_text() and with_refs(s.explain_illegal(0, discard(card(2, "spades")))) == quoted


def test_the_guide_names_every_hook_and_what_the_core_gives() -> None:
    text = GUIDE.read_text()
    for word in (
        "current_player",
        "_legal_actions",
        "_apply",
        "_apply_joint",
        "_chance_outcomes",
        "_explain",
        "observation",
        "_seen",
        "setup_text",
        "scene",
        "copied",
        "clone",
        "play_random",
        "evaluate",
        "resample",
        "GameType",
        "ActionSpace",
        "Option",
        "GAME_CLASS",
        "## Decisions",
        "## Our inventions",
        "games/radius.py",
    ):
        assert word in text, word
    assert "blast_radius.py" not in text  # point at a game that follows the template
