"""Agents on tiny games with known best moves: chance, hidden cards, simultaneous and co-operative play,
several players; specs, levels, budgets, reproducibility and tree reuse."""

from __future__ import annotations

import random
import time

import pytest
from minigames import (
    BlindGuessGame,
    DuelGame,
    KuhnGame,
    LotteryGame,
    LotteryState,
    TeamGame,
    ThreeWayGame,
    TreeGame,
    tree_game,
)

import boardlab
from boardlab.agents import LEVELS, MCTSAgent, agent_names, level_seconds, level_spec, make_agent
from boardlab.agents.rollout import random_rollout
from boardlab.core.gametype import GameType, Information
from boardlab.core.play import play_game
from boardlab.core.view import SeatView


def decide(spec: str, state: boardlab.State, seat: int, seed: int = 1) -> int:
    return make_agent(spec, state.game, seat, seed).step(SeatView(state, seat))


def test_every_spec_form_builds_an_agent() -> None:
    game = boardlab.make("blast-radius", board_side=5)
    assert {"random", "greedy", "mcts", "easy", "medium", "hard", "expert"} <= set(agent_names())
    for spec in ("random", "greedy", "greedy:playouts=2", "mcts", "mcts:iterations=2000", "mcts:seconds=1", *LEVELS):
        assert make_agent(spec, game, 0, 1) is not None
    hard = make_agent("hard", game, 1, 2)
    assert isinstance(hard, MCTSAgent) and hard.name == "hard" and hard.plies == int(LEVELS["hard"]["plies"])
    capped = make_agent("hard:seconds=0.5", game, 1, 2)
    assert isinstance(capped, MCTSAgent) and capped.seconds == 0.5 and capped.plies == hard.plies
    assert level_spec("expert").startswith("mcts:plies=")
    budgets = [int(LEVELS[name]["plies"]) for name in ("easy", "medium", "hard", "expert")]
    assert budgets == sorted(budgets) and len(set(budgets)) == 4


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:iterations=many", "must be an integer"),
        ("mcts:iterations=0", "at least 1"),
        ("mcts:seconds=-1", "positive"),
        ("mcts:colour=red", "unknown mcts parameter"),
        ("greedy:playouts=0", "at least 1"),
        ("hard:reuse=maybe", "true or false"),
        ("random:x=1", "no parameters"),
        ("grandmaster", "unknown agent"),
    ],
)
def test_bad_specs_are_refused_clearly(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(spec, boardlab.make("blast-radius"), 0, 1)


def test_chance_nodes_are_sampled_by_probability() -> None:
    s = LotteryGame().new_initial_state()
    assert decide("mcts:iterations=300", s, 0) == 1
    assert decide("greedy:playouts=40", s, 0) == 1


class FoolsLottery(LotteryGame):
    """The same lottery with an evaluation that (wrongly) prefers ticket 0: agents must use it."""

    id = "test-fools-lottery"


class FoolsLotteryState(LotteryState):
    def evaluate(self, seat: int) -> float:
        return 0.5 if self.ticket == 0 else -0.5


FoolsLottery.state_class = FoolsLotteryState


def test_greedy_and_mcts_use_the_games_own_evaluation() -> None:
    s = FoolsLottery().new_initial_state()
    assert decide("greedy", s, 0) == 0
    after = s.child(0)
    assert random_rollout(after.clone(), random.Random(0), cap=after.move_number()) == [0.5]  # cut: evaluated
    assert random_rollout(after.clone(), random.Random(0), cap=9)[0] in (-1.0, 1.0)  # played to the end


def kuhn_state(cards: list[int], bets: list[int]) -> boardlab.State:
    return KuhnGame().state_from_history([*cards, *bets])


def test_hidden_cards_information_set_search() -> None:
    spec = "mcts:iterations=400"
    assert decide(spec, kuhn_state([1, 2], [1]), 1) == 1  # holding the king, call a bet
    assert decide(spec, kuhn_state([1, 0], [1]), 1) == 0  # holding the jack, fold to a bet
    assert decide(spec, kuhn_state([2, 1], [0, 1]), 0) == 1  # king after check-bet: call
    assert decide(spec, kuhn_state([0, 1], [0, 1]), 0) == 0  # jack after check-bet: fold
    # The real opponent card does not matter: the agent only resamples it.
    assert decide(spec, kuhn_state([2, 1], [1]), 1) == decide(spec, kuhn_state([0, 1], [1]), 1)


def test_hidden_chance_outcomes_share_one_subtree() -> None:
    """A coin nobody sees: the search may not value the guess after it as if it knew the coin."""
    s = BlindGuessGame().new_initial_state()
    for seed in range(4):
        agent = MCTSAgent(s.game, 0, seed, iterations=400)
        assert agent.step(SeatView(s, 0)) == 0, seed  # the safe half point, not the blind guess
        toss = agent.last["root"].children[1]
        assert len(toss.children) == 1  # one subtree for both faces of the coin


def test_simultaneous_nodes_use_decoupled_uct() -> None:
    s = DuelGame().new_initial_state()
    assert decide("mcts:iterations=400", s, 1) == 2  # strictly dominant
    assert decide("mcts:iterations=400", s, 0) == 2  # weakly dominant
    s.apply_actions([1, 1])
    assert decide("mcts:iterations=50", s, 1) == 1  # steal the tie


def test_cooperative_seats_maximise_the_shared_return() -> None:
    s = TeamGame().new_initial_state()
    assert decide("mcts:iterations=300", s, 0) == 2
    s.apply_action(2)
    assert decide("mcts:iterations=50", s, 1) == 2


def test_each_seat_maximises_its_own_return_with_three_players() -> None:
    s = ThreeWayGame().new_initial_state()
    s.apply_action(0)
    assert decide("mcts:iterations=300", s, 1) == 3  # costs seat 0 a point, which is not seat 1's concern


def test_iteration_budgets_are_reproducible() -> None:
    game = boardlab.make("blast-radius", board_side=5)

    def history(seed: int) -> list:
        agents = [make_agent("mcts:iterations=25", game, 0, seed), make_agent("greedy:playouts=1", game, 1, seed)]
        state, _ = play_game(game.new_initial_state(), agents, random.Random(seed))
        return state.history()

    assert history(4) == history(4)
    assert history(4) != history(5)


def test_tree_is_reused_along_the_line_played() -> None:
    game = boardlab.make("blast-radius", board_side=5)
    s = game.new_initial_state()
    agent = make_agent("mcts:iterations=400", game, 0, 3)
    assert isinstance(agent, MCTSAgent)
    s.apply_action(agent.step(SeatView(s, 0)))
    s.apply_action(s.legal_actions()[0])
    agent.step(SeatView(s, 0))
    assert agent.last["reused"] > 0
    fresh = make_agent("mcts:iterations=400,reuse=false", game, 0, 3)
    fresh.step(SeatView(s, 0))
    assert fresh.last["reused"] == 0


def test_time_budget_is_kept() -> None:
    s = boardlab.make("blast-radius").new_initial_state()
    agent = make_agent("mcts:seconds=0.1", s.game, 0, 1)
    start = time.perf_counter()
    agent.step(SeatView(s, 0))
    assert time.perf_counter() - start < 0.5
    assert isinstance(agent, MCTSAgent) and agent.last["iterations"] >= 1


@pytest.mark.parametrize("game_id", ["blast-radius", "hamlet"])
def test_expert_answers_within_its_cpu_cap(game_id: str) -> None:
    """The first seat decision (the widest search) of a perfect- and a hidden-information game ends at expert's cap.

    (``tests/agents/test_level_budgets.py`` holds every level to its cap in a game of any speed.)
    """
    game = boardlab.make(game_id)
    s = game.new_initial_state()
    rng = random.Random(0)
    while s.current_player() < 0 and s.current_player() != boardlab.SIMULTANEOUS:
        s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
    seat = (
        s.current_player() if s.current_player() >= 0 else next(p for p in range(s.num_players) if s.legal_actions(p))
    )
    agent = make_agent("expert", game, seat, 1)
    start = time.process_time()
    action = agent.step(SeatView(s, seat))
    assert time.process_time() - start < level_seconds("expert") + 0.5
    assert action in s.legal_actions(seat)


def test_agents_refuse_a_seat_without_a_decision() -> None:
    s = boardlab.make("blast-radius", board_side=5).new_initial_state()
    for spec in ("mcts", "greedy"):
        with pytest.raises(ValueError, match="no legal action"):
            make_agent(spec, s.game, 1, 1).step(SeatView(s, 1))


def _replaying(agent: MCTSAgent, root, root_state: boardlab.State) -> int:
    """The plain iteration: copy the root position and replay every move of the descent."""
    d = root_state.clone()
    agent._iterate(root, d, True)
    return d.move_number()


def _search_record(agent: MCTSAgent, state: boardlab.State, seat: int) -> list:
    action = agent.step(SeatView(state, seat))
    root = agent.last["root"]
    stats = sorted((str(a), ch.n, round(ch.w, 9), ch.value) for a, ch in root.children.items()) if root else []
    return [action, agent.last["iterations"], agent.last["plies"], stats]


def _snapshots(node) -> int:
    return (node.snapshot is not None) + sum(_snapshots(ch) for ch in node.children.values())


@pytest.mark.parametrize(
    "game",
    [boardlab.make(g) for g in ("blast-radius", "new-rule", "posies")]
    + [boardlab.make("blast-radius", board_side=5), LotteryGame(), DuelGame(), TeamGame(), ThreeWayGame()],
    ids=lambda g: g.id or type(g).__name__,
)
def test_perfect_information_descent_from_snapshots_is_the_plain_search(game, monkeypatch) -> None:
    """Descending on what the nodes remember, from the nearest snapshot, changes nothing but the speed:
    same moves, same visit counts and values, same plies counted, with the tree reused along the game."""
    assert game.perfect_information

    def play(replay: bool) -> tuple[list, int]:
        if replay:
            monkeypatch.setattr(MCTSAgent, "_iterate_perfect", _replaying)
        rng = random.Random(4)
        state = game.new_initial_state()
        agents = [MCTSAgent(game, p, 10 + p, iterations=80) for p in range(state.num_players)]
        out, snapshots = [], 0
        while not state.is_terminal() and len(out) < 30:
            cp = state.current_player()
            if cp == boardlab.CHANCE:
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            seats = [p for p in range(state.num_players) if state.legal_actions(p)]
            recs = {p: _search_record(agents[p], state, p) for p in seats}
            snapshots += sum(_snapshots(a.last["root"]) for a in agents if a.last.get("root"))
            out.append(recs)
            if cp == boardlab.SIMULTANEOUS:
                state.apply_actions([recs[p][0] if p in recs else None for p in range(state.num_players)])
            else:
                state.apply_action(recs[cp][0] if rng.random() < 0.7 else rng.choice(state.legal_actions()))
        return out, snapshots

    fast, used = play(replay=False)
    plain, none = play(replay=True)
    assert fast == plain and none == 0
    if game.id == "blast-radius":
        assert used > 0  # deep trees late in the game: the snapshots were there and were used


# Seat 0 to move, lost against best play either way. Move 0 loses at once to the one right reply of seven
# (seat 1's other six replies lose), so its mean is high and it draws most visits until that reply is found;
# move 1 loses too, but only after four moves.
LOST_EITHER_WAY = (0, ((1, (1.0, 1.0, 1.0, 1.0, 1.0, 1.0, -1.0)), (1, ((0, ((1, (-1.0,)),)),))))


def test_a_proven_lost_root_resists_longest() -> None:
    for seed in range(8):
        agent = MCTSAgent(tree_game(LOST_EITHER_WAY), 0, seed, iterations=2000)
        state = agent.game.new_initial_state()
        assert agent.step(SeatView(state, 0)) == 1, seed
        assert agent.last["root"].value == [-1.0, 1.0]  # the root was solved: both moves are proven lost
        assert agent.last["iterations"] < 2000


def test_of_proven_wins_the_root_takes_the_soonest() -> None:
    """A root whose two moves are both proven wins: the one that wins at once, not the more visited one."""
    from boardlab.agents.mcts import Node

    def proven(mover: int, value: float, n: int, children: dict[int, Node] | None = None) -> Node:
        node = Node(mover)
        node.n, node.w, node.value = n, value * n if mover == 0 else -value * n, [value, -value]
        node.children = children or {}
        return node

    # Move 0 wins after seat 1's forced reply and seat 0's last move; move 1 wins at once.
    slow = proven(0, 1.0, 50, {0: proven(1, 1.0, 30, {0: proven(0, 1.0, 20)})})
    root = proven(-1, 1.0, 56, {0: slow, 1: proven(0, 1.0, 5)})
    agent = MCTSAgent(tree_game(LOST_EITHER_WAY), 0, 1, iterations=10)
    assert agent._best(root, 0, [0, 1], False) == 1
    del root.children[1]
    assert agent._best(root, 0, [0, 1], False) == 0


# Seat 0's move 0 is a sure draw; move 1 loses to seat 1's best reply (its first) and wins after the other three:
# against a player who answers well move 0 is right, against uniform random play move 1 (+0.5 on average).
SAFE_OR_GAMBLE = (0, ((1, (0.0, 0.0)), (1, (-1.0, 1.0, 1.0, 1.0))))


class _HiddenTree(TreeGame):
    """The same tree, typed as a game of imperfect information: the search takes its information-set path."""

    game_type = GameType(information=Information.IMPERFECT)


def test_the_other_seats_can_be_modelled_as_random_players() -> None:
    """``opponents=random``: the other seats choose uniformly inside the tree (a best response to random)."""
    hidden = _HiddenTree()
    hidden.tree = SAFE_OR_GAMBLE
    for game in (tree_game(SAFE_OR_GAMBLE), hidden):
        for seed in range(4):
            state = game.new_initial_state()
            best = MCTSAgent(game, 0, seed, iterations=400)
            assert best.step(SeatView(state, 0)) == 0, (game.game_type.information, seed)
            versus_random = MCTSAgent(game, 0, seed, iterations=400, opponents="random")
            assert versus_random.step(SeatView(state, 0)) == 1, (game.game_type.information, seed)
            # Seat 1's replies after the gamble were drawn uniformly, not concentrated on its best one.
            replies = [ch.n for ch in versus_random.last["root"].children[1].children.values()]
            assert len(replies) == 4 and min(replies) > 0.15 * sum(replies)
    # The searching seat itself still maximises: seat 1, to move after the gamble, takes its winning reply.
    after = tree_game(SAFE_OR_GAMBLE).new_initial_state()
    after.apply_action(1)
    assert MCTSAgent(after.game, 1, 1, iterations=200, opponents="random").step(SeatView(after, 1)) == 0
    assert decide("hard:opponents=random", boardlab.make("blast-radius", board_side=5).new_initial_state(), 0) >= 0
    with pytest.raises(ValueError, match="opponents must be one of search, random"):
        make_agent("mcts:opponents=perfect", boardlab.make("blast-radius"), 0, 1)
