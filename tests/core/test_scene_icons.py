"""The symbols a scene may name (``icon``) are exactly those the browser's renderer can draw, and scenes that
use the new keys (icons, names, badges, sizes, confirmations) fit the schema."""

from __future__ import annotations

import pathlib
import re

from boardlab.core import scene as sc

ICONS_JS = pathlib.Path(sc.__file__).resolve().parents[1] / "web" / "js" / "icons.js"


def drawn_icons() -> set[str]:
    text = ICONS_JS.read_text()
    body = text[text.index("export const ICONS = {") : text.index("\n};")]
    return set(re.findall(r'^  "?([a-z-]+)"?: \[', body, flags=re.M))


def test_every_icon_the_schema_names_is_drawn_and_no_other() -> None:
    assert drawn_icons() == set(sc.ICONS)


def test_scenes_with_icons_names_and_warnings_fit_the_schema() -> None:
    s = sc.new_scene("Move.", (0, 0, 2, 1))
    s["cells"] = [sc.cell("a1", (0.5, 0.5), [(0, 0), (1, 0), (1, 1), (0, 1)]), sc.cell("b1", (1.5, 0.5))]
    s["pieces"] = [
        sc.piece("a1", 0, "elephant", label="E", icon="elephant", name="White's Elephant", badge="★", size=0.6)
    ]
    s["zones"] = [sc.zone("hand", "Hand", [sc.item("c", "Hamlet", icon="skull", name="Prince Hamlet defeats...")])]
    s["targets"] = [{"at": "b1", "action": 1, "label": "to b1", "confirm": "You lose at once."}]
    s["buttons"] = [sc.button(2, "fly away", confirm="You lose at once.")]
    assert sc.check_scene(s, [(1, "to b1"), (2, "fly away")]) == []
    s["pieces"][0]["icon"] = "unicorn"
    assert any("pieces[0].icon" in p for p in sc.check_scene(s, [(1, "to b1"), (2, "fly away")]))
    s["pieces"][0]["icon"] = "elephant"
    s["pieces"][0]["badge"] = "four"
    assert sc.check_scene(s, [(1, "to b1"), (2, "fly away")])
