# Every compiled game module's ``play_random`` (included after the module's ``Engine`` and ``_engine(game)``,
# which makes the engine for a game; ``Draws``/``open_draws`` come from ``_rng.pxi``).


def play_random(state, rnd, int plies) -> int:
    """The core's ``play_random`` on this game's state, in C: the same draws and moves, the same state at the end."""
    cdef Engine e = _engine(state.game)
    e.load(state)
    cdef Draws d = open_draws(rnd)
    try:
        played = e.rollout(d, plies)
    finally:
        d.close()
    e.store(state)
    return played
