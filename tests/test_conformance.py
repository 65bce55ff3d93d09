"""Conformance: every registered game obeys the core's contracts (issue 2 §4).

Parametrised over ``boardlab.games()`` so every game added later is checked for free.
"""

from __future__ import annotations

import json
import math
import pathlib
import random
import re
from collections import Counter
from collections.abc import Callable

import pytest

import boardlab
from boardlab.agents import make_agent
from boardlab.core import hidden
from boardlab.core.constants import CHANCE, SIMULTANEOUS, TERMINAL
from boardlab.core.errors import IllegalActionError, OutOfTurnError
from boardlab.core.gametype import Chance, Dynamics, Utility
from boardlab.core.play import play_game, random_playout
from boardlab.core.record import GameRecord
from boardlab.core.scene import check_scene
from boardlab.core.tensor import Tensor
from boardlab.core.view import SeatView
from example_games import EXAMPLE_GAMES, rules_document
from state_checks import fingerprint, random_step

#: Every registered game, and the worked example of docs/ADDING_A_GAME.md (checked alike, never registered).
GAMES = boardlab.games() + EXAMPLE_GAMES
ROOT = pathlib.Path(__file__).resolve().parents[1]


def player_counts(game: boardlab.Game) -> list[int]:
    return list(range(game.min_players, min(game.max_players, game.min_players + 3) + 1))


def sampled_states(game: boardlab.Game, seed: int, every: int = 1, limit: int = 20) -> list[boardlab.State]:
    """States along one random game (every ``every``-th), for several player counts.

    At most ``limit`` states per player count, spread evenly over the game and
    always including its end, so long games (many steps) cost no more than short ones.
    """
    rng = random.Random(seed)
    out = []
    for n in player_counts(game):
        s = game.new_initial_state(n)
        cap = game.max_game_length()
        k = 0
        run = []
        while not s.is_terminal() and s.move_number() < cap:
            if k % every == 0:
                run.append(s.clone())
            random_step(s, rng)
            k += 1
        run.append(s)
        out.extend(spread(run, limit))
    return out


def spread(items: list, limit: int) -> list:
    """At most ``limit`` of ``items``, evenly spaced, the last always kept.

    >>> spread(list(range(10)), 4)
    [0, 3, 6, 9]
    >>> spread([1, 2], 5)
    [1, 2]
    """
    if len(items) <= limit:
        return items
    step = (len(items) - 1) / (limit - 1)
    return [items[round(i * step)] for i in range(limit)]


@pytest.mark.parametrize("game_id", GAMES)
def test_metadata_and_rules_document(game_id: str) -> None:
    game = boardlab.make(game_id)
    meta = game.metadata()
    assert meta["id"] == game_id and meta["title"] and meta["mechanics"] and meta["playing_time"]
    assert 1 <= game.min_players <= game.max_players
    assert game.num_distinct_actions() > 0 and game.max_game_length() > 0
    for opt in game.options:
        assert opt.description and (opt.allowed is None or opt.default in opt.allowed)
    doc = rules_document(game_id)
    text = doc.read_text()
    assert "## Decisions" in text and "## Our inventions" in text
    assert any(line.lstrip().startswith(("1.", "§1", "**1")) for line in text.splitlines())
    for opt in game.options:
        assert f"`{opt.name}`" in text, f"option {opt.name} is not documented in {doc.name}"


@pytest.mark.parametrize("game_id", GAMES)
def test_bad_options_and_player_counts_are_refused(game_id: str) -> None:
    with pytest.raises(ValueError, match="no_such_option"):
        boardlab.make(game_id, no_such_option=1)
    game = boardlab.make(game_id)
    with pytest.raises(ValueError):
        game.new_initial_state(game.max_players + 1)
    for opt in game.options:
        if opt.allowed is not None and opt.type is not bool:
            with pytest.raises(ValueError, match=opt.name):
                boardlab.make(game_id, **{opt.name: "definitely-not-allowed"})


@pytest.mark.parametrize("game_id", GAMES)
def test_random_games_end_within_the_cap(game_id: str) -> None:
    game = boardlab.make(game_id)
    for n in player_counts(game):
        for seed in range(8):
            state, capped = random_playout(game.new_initial_state(n), random.Random(seed))
            assert not capped, f"{game_id} ({n} players, seed {seed}) hit the safety cap"
            assert state.current_player() == TERMINAL
            r = state.returns()
            assert len(r) == n and all(isinstance(x, float) for x in r)
            assert state.legal_actions() == []


@pytest.mark.parametrize("game_id", GAMES)
def test_same_seed_same_game(game_id: str) -> None:
    game = boardlab.make(game_id)
    a, _ = random_playout(game.new_initial_state(), random.Random(42))
    b, _ = random_playout(game.new_initial_state(), random.Random(42))
    assert a.history() == b.history() and fingerprint(a) == fingerprint(b)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_legal_action_applies_and_illegal_ones_change_nothing(game_id: str) -> None:
    game = boardlab.make(game_id)
    rng = random.Random(7)
    for s in sampled_states(game, seed=3, every=3):
        cp = s.current_player()
        before = fingerprint(s)
        if cp >= 0:
            legal = s.legal_actions()
            assert legal == sorted(legal) and len(set(legal)) == len(legal) and legal
            for a in legal:
                c = s.clone()
                c.apply_action(a)
                assert c.move_number() == s.move_number() + 1
            labels = [s.action_to_string(cp, a) for a in legal]
            assert len(set(labels)) == len(labels), f"two legal actions share a label: {labels}"
            for a, label in zip(legal, labels):
                assert s.string_to_action(cp, label) == a
            illegal = [a for a in range(-2, game.num_distinct_actions() + 2) if a not in legal]
            for a in [*rng.sample(illegal, min(5, len(illegal))), "x", None, 1.5, True]:
                with pytest.raises(IllegalActionError) as info:
                    s.apply_action(a)  # type: ignore[arg-type]
                assert info.value.explanation
                assert isinstance(s.explain_illegal(cp, a), str)
                assert fingerprint(s) == before
            other = (cp + 1) % s.num_players
            if other != cp:
                with pytest.raises(OutOfTurnError):
                    s.apply_action(legal[0], player=other)
                assert fingerprint(s) == before
            with pytest.raises(IllegalActionError):
                s.apply_actions([legal[0]] * s.num_players)
        elif cp == SIMULTANEOUS:
            joint = [rng.choice(s.legal_actions(p)) if s.legal_actions(p) else None for p in range(s.num_players)]
            with pytest.raises(IllegalActionError):
                s.apply_action(joint[0] if joint[0] is not None else 0)
            with pytest.raises(IllegalActionError):
                s.apply_actions(joint[:-1])
            deciding = [p for p in range(s.num_players) if s.legal_actions(p)]
            bad = list(joint)
            bad[deciding[0]] = game.num_distinct_actions() + 5
            with pytest.raises(IllegalActionError):
                s.apply_actions(bad)
            assert fingerprint(s) == before
            c = s.clone()
            c.apply_actions(joint)
        elif cp == CHANCE:
            outcomes = s.chance_outcomes()
            assert outcomes and all(p > 0 for _, p in outcomes)
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            assert len({a for a, _ in outcomes}) == len(outcomes)
            assert all(0 <= a < max(1, game.max_chance_outcomes()) for a, _ in outcomes)
            with pytest.raises(IllegalActionError):
                s.apply_action(max(a for a, _ in outcomes) + 1000)
            assert fingerprint(s) == before
        else:
            assert s.is_terminal()
            with pytest.raises(IllegalActionError):
                s.apply_action(0)


@pytest.mark.parametrize("game_id", GAMES)
def test_json_round_trip_replay_and_record(game_id: str) -> None:
    game = boardlab.make(game_id)
    for s in sampled_states(game, seed=11, every=7, limit=12):
        text = s.to_json()
        json.loads(text)
        assert fingerprint(game.state_from_json(text)) == fingerprint(s)
        assert fingerprint(game.state_from_history(s.history(), s.num_players)) == fingerprint(s)
        assert fingerprint(s.clone()) == fingerprint(s)
        rec = GameRecord.from_json(GameRecord.from_state(s).to_json())
        assert fingerprint(rec.replay()) == fingerprint(s)


@pytest.mark.parametrize("game_id", GAMES)
def test_clone_is_independent(game_id: str) -> None:
    game = boardlab.make(game_id)
    rng = random.Random(5)
    for s in sampled_states(game, seed=5, every=9):
        if s.is_terminal():
            continue
        before = fingerprint(s)
        c = s.clone()
        for _ in range(5):
            if c.is_terminal():
                break
            random_step(c, rng)
        assert fingerprint(s) == before


@pytest.mark.parametrize("game_id", GAMES)
def test_observations_and_scenes(game_id: str) -> None:
    game = boardlab.make(game_id)
    for s in sampled_states(game, seed=13, every=4, limit=12):
        for p in [*range(s.num_players), None]:
            obs = s.observation(p)
            json.dumps(obs)
            legal = s.legal_moves(p) if p is not None else []
            scene = s.scene(p)
            assert check_scene(scene, legal) == [], (p, check_scene(scene, legal))
            assert scene["prompt"]


@pytest.mark.parametrize("game_id", GAMES)
def test_hidden_information_never_leaks(game_id: str) -> None:
    """``observation(p)`` and ``scene(p)`` are identical on every state ``resample(p)`` returns."""
    game = boardlab.make(game_id)
    rng = random.Random(17)
    varied = False
    hidden = not game.perfect_information
    for s in sampled_states(game, seed=17, every=2 if hidden else 5, limit=16):
        for p in [*range(s.num_players), None]:
            obs = json.dumps(s.observation(p), sort_keys=True)
            scene = json.dumps(s.scene(p), sort_keys=True)
            for _ in range(3 if hidden else 1):
                r = s.resample(p, rng)
                assert json.dumps(r.observation(p), sort_keys=True) == obs
                assert json.dumps(r.scene(p), sort_keys=True) == scene
                assert r.current_player() == s.current_player()
                if p is not None and r.current_player() >= 0:
                    assert r.legal_actions(p) == s.legal_actions(p)
                if fingerprint(r) != fingerprint(s):
                    varied = True
    if game.perfect_information:
        assert not varied, "resample changed the state, so the game hides something: set perfect_information = False"
    else:
        assert varied, "resample never changed anything: hidden information is not being redrawn"


@pytest.mark.parametrize("game_id", GAMES)
def test_undo_points_respect_barriers(game_id: str) -> None:
    game = boardlab.make(game_id)
    for s in sampled_states(game, seed=19, every=5):
        actors = s.actors()
        for p in range(s.num_players):
            k = s.undo_point(p)
            if k is None:
                continue
            assert actors[k] == p and all(a >= 0 for a in actors[k:])
            back = game.state_from_history(s.history()[:k], s.num_players)
            assert back.current_player() == p


#: Observation keys that only present a position (the last move's words, the log, colour names, who is looking):
#: two observations that differ only in these may share one observation tensor.
PRESENTATION_KEYS = frozenset(
    {"colours", "viewer", "seat", "log", "events", "report", "why", "reason", "end_reason", "goal_text", "num_players"}
)


def tensor_relevant(observation: dict) -> str:
    """The observation without its presentation (keys above, and every key naming the last move: ``last*``)."""
    kept = {k: v for k, v in observation.items() if k not in PRESENTATION_KEYS and not k.startswith("last")}
    return json.dumps(kept, sort_keys=True)


def children(s: boardlab.State, rng: random.Random, k: int = 12) -> list[boardlab.State]:
    """Up to ``k`` states one step after ``s`` (positions that differ from each other by one move)."""
    cp = s.current_player()
    if cp == TERMINAL:
        return []
    if cp == CHANCE:
        entries: list = [a for a, _ in s.chance_outcomes()]
    elif cp == SIMULTANEOUS:
        entries = [
            [rng.choice(s.legal_actions(p)) if s.legal_actions(p) else None for p in range(s.num_players)]
            for _ in range(k)
        ]
    else:
        entries = s.legal_actions()
    out = []
    for entry in rng.sample(entries, min(k, len(entries))):
        c = s.clone()
        c.apply_actions(entry) if isinstance(entry, list) else c.apply_action(entry)
        out.append(c)
    return out


def check_observation_tensors(game: boardlab.Game, seeds: tuple[int, ...], every: int, k: int, limit: int) -> None:
    """The observation-tensor contract on the states of random games (see the tests below)."""
    rng = random.Random(seeds[0])
    secret = not game.perfect_information
    seen: dict[tuple, tuple[str, list]] = {}
    for seed in seeds:
        for s in sampled_states(game, seed=seed, every=max(1, every // 2) if secret else every, limit=limit):
            n = s.num_players
            shape, layout = game.observation_tensor_shape(n), game.observation_tensor_layout(n)
            for p in [*range(n), None]:
                t = Tensor()
                s._observation_tensor(p, t)
                assert t.layout() == layout, f"the fields differ from the game's layout (seat {p}, {s.history()})"
                values = s.observation_tensor(p)
                assert values == t.values and (len(values),) == shape
                assert all(0.0 <= x <= 1.0 for x in values)  # the range the adapters declare
                for _ in range(3 if secret else 1):
                    try:  # a spectator, who saw no deal at all, gets the core's search, bounded (it can be
                        # exponential; a game's own resample may fall back to it unbounded, as Triad's does)
                        r = s.resample(p, rng) if p is not None else hidden.resample(s, p, rng, budget=2_000)
                    except hidden.ResampleError:
                        assert p is None
                        break
                    assert r.observation_tensor(p) == values, f"the tensor of seat {p} shows what resample redraws"
            for c in [s, *children(s, rng, k)]:
                for p in [*range(n), None]:
                    obs = tensor_relevant(c.observation(p))
                    first = seen.setdefault((n, p, tuple(c.observation_tensor(p))), (obs, c.history()))
                    assert first[0] == obs, (
                        f"seat {p} tells apart two positions that have one tensor: {first[1]} and {c.history()}"
                    )


@pytest.mark.parametrize("game_id", GAMES)
def test_observation_tensor_has_a_fixed_layout_and_exactly_what_the_seat_may_know(game_id: str) -> None:
    """For every seat and a spectator, along random games: the tensor has the game's fixed shape and layout, is
    in 0..1, and is the same in every world ``resample`` draws for that seat (no hidden information); and it tells
    apart the positions the seat's observation tells apart (presentation aside, see ``tensor_relevant``), checked
    over the sampled positions of two games and the positions one move after each (which differ from each other
    in one move, so a tensor that leaves out something the seat sees is caught)."""
    check_observation_tensors(boardlab.make(game_id), seeds=(43, 44), every=6, k=12, limit=12)


def option_variants() -> list[tuple[str, dict]]:
    """Every non-default value of every option with a list of allowed values, one at a time."""
    out = []
    for game_id in GAMES:
        for opt in boardlab.make(game_id).options:
            for value in opt.allowed or ():
                if value != opt.default:
                    out.append((game_id, {opt.name: value}))
    return out


@pytest.mark.parametrize(("game_id", "options"), option_variants(), ids=lambda x: str(x))
def test_every_option_value_keeps_the_observation_tensor_contract(game_id: str, options: dict) -> None:
    """The observation-tensor check above, more coarsely, under each non-default option value (a variant may
    hide information, as Posies' hidden colour does, or change the board and so the shape)."""
    check_observation_tensors(boardlab.make(game_id, **options), seeds=(45,), every=10, k=4, limit=6)


@pytest.mark.parametrize(("game_id", "options"), option_variants(), ids=lambda x: str(x))
def test_every_option_value_keeps_the_contracts(game_id: str, options: dict) -> None:
    """Each option value: random games end, replay reproduces, hidden information stays hidden."""
    game = boardlab.make(game_id, **options)
    rng = random.Random(23)
    for seed in range(3):
        state, capped = random_playout(game.new_initial_state(), random.Random(seed))
        assert not capped and state.is_terminal()
        assert fingerprint(game.state_from_json(state.to_json())) == fingerprint(state)
    for s in sampled_states(game, seed=29, every=6, limit=8):
        for p in [*range(s.num_players), None]:
            obs = json.dumps(s.observation(p), sort_keys=True)
            scene = s.scene(p)
            assert check_scene(scene, s.legal_moves(p) if p is not None else []) == []
            r = s.resample(p, rng)
            assert json.dumps(r.observation(p), sort_keys=True) == obs
            assert json.dumps(r.scene(p), sort_keys=True) == json.dumps(scene, sort_keys=True)


def play_random_cases() -> list[tuple[str, dict]]:
    return [(g, {}) for g in GAMES] + option_variants()


@pytest.mark.parametrize(("game_id", "options"), play_random_cases(), ids=lambda x: str(x))
def test_play_random_makes_the_default_moves(game_id: str, options: dict) -> None:
    """A game's own ``play_random`` (the search agents' rollout) is the core's, move for move.

    From positions along a random game, with a few seeds and ply limits: the same
    history as the core's default loop, and a state equal to its replay, so a fast
    override keeps every table right.
    """
    game = boardlab.make(game_id, **options)
    base = boardlab.State.play_random
    for k, s in enumerate(sampled_states(game, seed=31, every=7)):
        for seed, plies in ((k, 10**6), (k + 100, 3 + k % 5)):
            mine, ref = s.clone(), s.clone()
            played = mine.play_random(random.Random(seed).random, plies)
            assert played == base(ref, random.Random(seed).random, plies)
            assert mine.history() == ref.history()
            assert played <= plies and (played == plies or mine.is_terminal() or played == 0)
            replay = game.state_from_history(mine.history(), mine.num_players)
            assert fingerprint(mine) == fingerprint(replay) == fingerprint(ref)


def settings() -> list[tuple[str, dict]]:
    """Every game with its defaults, then every non-default option value one at a time."""
    return [(g, {}) for g in GAMES] + option_variants()


@pytest.mark.parametrize(("game_id", "options"), settings(), ids=lambda x: str(x))
def test_declared_game_type_matches_random_games(game_id: str, options: dict) -> None:
    """The GameType a game declares is what random games do, under every option value."""
    game = boardlab.make(game_id, **options)
    t = game.game_type
    assert t == type(game).game_type.resolve(game.params) and not t.variants
    assert game.perfect_information is t.perfect_information and game.cooperative is t.cooperative
    for v in type(game).game_type.variants:
        opt = next(o for o in game.options if o.name == v.option)
        assert opt.allowed is None or set(v.values) <= set(opt.allowed), (v, opt.allowed)
    if t.chance is Chance.EXPLICIT:
        assert game.max_chance_outcomes() > 0
    rng = random.Random(37)
    seen = set()
    for n in player_counts(game):
        for seed in range(3):
            s = game.new_initial_state(n)
            k = 0
            while not s.is_terminal() and s.move_number() < game.max_game_length():
                seen.add(s.current_player())
                if t.perfect_information and k % 7 == 0:
                    for p in [*range(n), None]:
                        assert fingerprint(s.resample(p, rng)) == fingerprint(s), (
                            "perfect information, yet resample differs"
                        )
                random_step(s, random.Random(seed * 1000 + k))
                k += 1
            r = s.returns()
            assert all(t.min_utility <= x <= t.max_utility for x in r), (r, t)
            if t.utility is Utility.IDENTICAL:
                assert len(set(r)) == 1, r
            if t.utility_sum is not None:
                assert abs(sum(r) - t.utility_sum) < 1e-9, r
    assert (SIMULTANEOUS in seen) == (t.dynamics is Dynamics.SIMULTANEOUS), "dynamics do not match the declaration"
    assert (CHANCE in seen) == (t.chance is Chance.EXPLICIT), "chance nodes do not match the declaration"


NUMBER_LABEL = re.compile(r"#\s*\d|^\s*-?\d+\s*$")


@pytest.mark.parametrize(("game_id", "options"), settings(), ids=lambda x: str(x))
def test_action_labels_are_distinct_words_that_name_their_action(game_id: str, options: dict) -> None:
    """Every decision's legal actions have distinct, non-empty labels, none a bare or '#' number,
    each typed back to its own action; an action space covers exactly the game's actions."""
    game = boardlab.make(game_id, **options)
    space = game.action_space
    if space is not None:
        assert game.num_distinct_actions() == space.size
        for a in range(space.size):
            name, indices = space.decode(a)
            assert space.encode(name, *indices) == a
    for s in sampled_states(game, seed=41, every=2):
        cp = s.current_player()
        seats = range(s.num_players) if cp == SIMULTANEOUS else [cp] if cp != TERMINAL else []
        for p in seats:
            legal = s.legal_actions(p)
            labels = [s.action_to_string(p, a) for a in legal]
            assert all(label.strip() for label in labels), labels
            assert not [x for x in labels if NUMBER_LABEL.search(x)], f"number labels: {labels}"
            if p >= 0:
                keys = [" ".join(x.lower().split()) for x in labels]
                assert len(set(keys)) == len(keys), f"two legal actions share a label: {labels}"
                for a, label in zip(legal, labels):
                    assert s.string_to_action(p, label) == a
            if p >= 0 and space is not None and len(legal) > 0:
                # Every action of the space is named in words, even where illegal (error messages use the names).
                every = [s.action_to_string(p, a) for a in range(space.size)]
                assert not [x for x in every if not x.strip() or NUMBER_LABEL.search(x)], every


# -- hidden information and immutable history (Core v2 items 1 and 2) -------------------------------------------


def log_snapshot(s: boardlab.State) -> str:
    """The history, the JSON and every viewer's log (revealed or not) of a state, to check nothing changed."""
    viewers = [*range(s.num_players), None]
    logs = [s.move_log(v, reveal=r) for v in viewers for r in (False, True)]
    return json.dumps([s.history(), s.to_json(), logs, s.actors()])


def seen_exactly(s: boardlab.State, viewer: int | None) -> list[bool]:
    """Per history entry, whether ``viewer`` saw it exactly."""
    return [hidden.exact_for(seen, viewer) for seen in hidden.seens_of(s)]


@pytest.mark.parametrize(("game_id", "options"), play_random_cases(), ids=lambda x: str(x))
def test_reading_or_searching_a_state_leaves_its_history_and_log_unchanged(game_id: str, options: dict) -> None:
    """``resample``, ``observation``, ``scene``, ``clone`` (and play on the copies) and an MCTS search change nothing."""
    game = boardlab.make(game_id, **options)
    rng = random.Random(37)
    states = sampled_states(game, seed=37, every=11, limit=6 if options else 10)
    for k, s in enumerate(states):
        assert all(isinstance(h, int | tuple) for h in s._history), "history entries must be ints or tuples"
        before = log_snapshot(s)
        for p in [*range(s.num_players), None]:
            s.observation(p)
            s.scene(p)
            for copy in (s.resample(p, rng), s.clone()):
                for _ in range(4):
                    if copy.is_terminal():
                        break
                    random_step(copy, rng)
                copy.play_random(rng.random, 5)
        assert log_snapshot(s) == before
        if k % 3 == 1 and not s.is_terminal():
            cp = s.current_player()
            seats = [p for p in range(s.num_players) if s.legal_actions(p)] if cp == SIMULTANEOUS else [cp]
            for p in seats if cp != CHANCE else []:
                make_agent("mcts:iterations=30", game, p, seed=k).step(SeatView(s, p))
            assert log_snapshot(s) == before


def hidden_cases() -> list[tuple[str, dict]]:
    return [(g, o) for g, o in play_random_cases() if not boardlab.make(g, **o).perfect_information]


@pytest.mark.parametrize(("game_id", "options"), hidden_cases(), ids=lambda x: str(x))
def test_resample_keeps_everything_the_viewer_saw(game_id: str, options: dict) -> None:
    """A resample for ``v`` (the game's own and the core's default): the same observation and log for ``v``, and a
    history that differs only in entries ``v`` did not see exactly; so no log text of ``v`` depends on a secret."""
    game = boardlab.make(game_id, **options)
    rng = random.Random(41)
    own = type(game.new_initial_state()).resample is not boardlab.State.resample
    for s in sampled_states(game, seed=41, every=5, limit=6 if options else 10):
        for v in [*range(s.num_players), None]:
            obs = json.dumps(s.observation(v), sort_keys=True)
            log = s.move_log(v, reveal=False)
            exact = seen_exactly(s, v)
            worlds = [s.resample(v, rng)]
            try:  # beside a game's own resample, the core's is checked where its search is quick (it can be
                # exponential for a spectator who saw no setup at all: that is why such a game has its own)
                worlds.append(hidden.resample(s, v, rng, budget=2_000) if own else hidden.resample(s, v, rng))
            except hidden.ResampleError:
                assert own
            for r in worlds:
                assert json.dumps(r.observation(v), sort_keys=True) == obs
                assert r.move_log(v, reveal=False) == log, "the log of a redrawn world differs: it shows a secret"
                assert r.actors() == s.actors()
                for i, (a, b) in enumerate(zip(r.history(), s.history(), strict=True)):
                    assert a == b or not exact[i], f"entry {i} was seen exactly by {v} but was redrawn"


@pytest.mark.parametrize(("game_id", "options"), hidden_cases(), ids=lambda x: str(x))
def test_a_game_with_hidden_information_says_who_sees_each_step(game_id: str, options: dict) -> None:
    """The core's default ``_seen`` shows every step to everyone: a game that hides something must declare its own."""
    state = boardlab.make(game_id, **options).new_initial_state()
    assert type(state)._seen is not boardlab.State._seen


def chi_square_differs(a: Counter, b: Counter) -> bool:
    """Whether two equal-sized samples differ beyond chance (two-sample chi-square, p below about 1e-6)."""
    keys = set(a) | set(b)
    df = len(keys) - 1
    if df < 1:
        return False
    stat = sum((a[k] - b[k]) ** 2 / (a[k] + b[k]) for k in keys)
    z = 4.75  # Wilson-Hilferty approximation of the chi-square quantile
    return stat > df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def resample_distributions(
    s: boardlab.State, v: int | None, override: Callable[..., boardlab.State], n: int, seed: int
) -> tuple[Counter, Counter]:
    rng = random.Random(seed)
    mine = Counter(json.dumps(override(s, v, rng).history()) for _ in range(n))
    core = Counter(json.dumps(hidden.resample(s, v, rng).history()) for _ in range(n))
    return mine, core


def override_cases() -> list[tuple[str, dict]]:
    return [
        (g, o)
        for g, o in hidden_cases()
        if type(boardlab.make(g, **o).new_initial_state()).resample is not boardlab.State.resample
    ]


@pytest.mark.parametrize(("game_id", "options"), override_cases(), ids=lambda x: str(x))
def test_a_resample_override_draws_as_the_core_default(game_id: str, options: dict) -> None:
    """On the first positions of random games where something is hidden: the same distribution of redrawn worlds."""
    game = boardlab.make(game_id, **options)
    override = type(game.new_initial_state()).resample
    checked = 0
    # Seat 0's view; only a game whose seats see every step (spectators alone are kept out) is checked as a spectator.
    for viewer in (0, None):
        for seed in range(6):
            for s in sampled_states(game, seed=seed, limit=10**6):
                if checked >= 3 or s.num_players != game.min_players:
                    break
                if all(seen_exactly(s, viewer)):
                    continue
                mine, core = resample_distributions(s, viewer, override, 300, seed)
                assert len(core) > 1
                assert not chi_square_differs(mine, core), (s.history(), mine, core)
                checked += 1
                break
        if checked:
            break
    assert checked >= 2


def test_the_distribution_check_can_fail() -> None:
    """A biased Dragon Fight override (the hidden attack always redrawn as claw) is caught."""
    game = boardlab.make("dragon-fight")
    s = game.state_from_history([[2, 2], [0, 1]])  # both forward twice, into one square: a collision (§3d)
    assert not all(seen_exactly(s, 0))

    def biased(state: boardlab.State, v: int | None, rng: random.Random) -> boardlab.State:
        h = state.history()
        h[1][1] = 4 * (h[1][1] // 4)
        return game.state_from_history(h)

    mine, core = resample_distributions(s, 0, biased, 300, 1)
    assert chi_square_differs(mine, core)
    fair, core = resample_distributions(s, 0, type(s).resample, 300, 1)
    assert not chi_square_differs(fair, core) and len(core) == 4


@pytest.mark.parametrize("game_id", GAMES)
def test_an_mcts_game_record_replays_to_the_same_end(game_id: str) -> None:
    """MCTS against MCTS (few iterations, a capped prefix): at every step the history is the moves played, and the
    record replays to the identical state and returns."""
    game = boardlab.make(game_id)
    state = game.new_initial_state()
    agents = [make_agent("mcts:iterations=8", game, p, seed=p) for p in range(state.num_players)]
    played: list[object] = []

    def check(s: boardlab.State, entry: object) -> None:
        assert s.history() == played  # called just before each entry is applied
        played.append(list(entry) if isinstance(entry, list | tuple) else entry)

    state, _ = play_game(state, agents, random.Random(3), cap=40, on_step=check)
    assert state.history() == played
    rec = GameRecord.from_json(GameRecord.from_state(state).to_json())
    again = rec.replay()
    assert fingerprint(again) == fingerprint(state)
    assert again.returns() == state.returns() and again.move_log(0) == state.move_log(0)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_dealt_setup_is_one_line_of_the_log(game_id: str) -> None:
    """A game that opens with several chance entries everyone sees (a board dealt at random) names that setup in
    one log line (``Game.setup_text``), so a log does not start with one line per tile."""
    game = boardlab.make(game_id)
    for seed in range(3):
        s = game.new_initial_state()
        rng = random.Random(seed)
        opening = 0
        while s.current_player() == CHANCE and hidden.exact_for(s.seen_of(s.chance_outcomes()[0][0]), None):
            random_step(s, rng)
            opening += 1
        if opening > 2:
            assert game.setup_text, f"{game_id} opens with {opening} public chance entries but declares no setup_text"
            log = s.move_log(None)
            assert log[0]["text"] == game.setup_text and len(log) == 1 + (s.move_number() - opening)
