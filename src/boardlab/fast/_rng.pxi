# The caller's random numbers, drawn in C (included by every compiled game module).
#
# ``play_random(rnd, plies)`` gets ``rnd``, usually ``random.Random(...).random``. Then the numbers are drawn by
# Python's own Mersenne Twister in C, straight from that generator's state (``_mt.h``), so the compiled loop
# draws exactly what ``rnd()`` would have and leaves the generator where ``rnd()`` would have. Any other callable
# is called once per draw, as the pure-Python loop does.

from libc.stdint cimport uint32_t
from cpython.ref cimport PyObject

import _random

cdef extern from "_mt.h":
    double bl_random(int *index, uint32_t *mt) nogil
    int *bl_index_of(PyObject *r)
    uint32_t *bl_state_of(PyObject *r)

cdef int _LAYOUT = -1  # 1: the generator's state is read in place; 0: through getstate()/setstate()
_METHOD = type(_random.Random().random)


cdef class Draws:
    """The caller's random numbers: ``next()`` is one ``rnd()``; ``close()`` hands the generator back."""

    cdef int mode  # 0: in place, 1: a copy through getstate()/setstate(), 2: call rnd()
    cdef int *index
    cdef uint32_t *mt
    cdef int own_index
    cdef uint32_t own[624]
    cdef object obj
    cdef object fn

    cdef inline double next(self) except? -1.0:
        if self.mode == 2:
            return float(self.fn())
        return bl_random(self.index, self.mt)

    cdef close(self):
        if self.mode == 1:
            _random.Random.setstate(self.obj, tuple([self.own[i] for i in range(624)]) + (self.own_index,))
        self.obj = None
        self.fn = None


cdef Draws open_draws(object rnd):
    cdef Draws d = Draws.__new__(Draws)
    cdef int i
    obj = getattr(rnd, "__self__", None)
    if type(rnd) is _METHOD and isinstance(obj, _random.Random) and getattr(rnd, "__name__", "") == "random":
        d.obj = obj
        if _LAYOUT == 1:
            d.mode = 0
            d.index = bl_index_of(<PyObject *>obj)
            d.mt = bl_state_of(<PyObject *>obj)
        else:
            st = _random.Random.getstate(obj)
            for i in range(624):
                d.own[i] = st[i]
            d.own_index = st[624]
            d.mode = 1
            d.index = &d.own_index
            d.mt = d.own
    else:
        d.mode = 2
        d.fn = rnd
    return d


def _check_layout() -> bool:
    """Whether a generator's state can be read in place: same words as getstate(), same numbers as random()."""
    import random

    r, twin = random.Random(20261203), random.Random(20261203)
    st = _random.Random.getstate(r)
    cdef int *index = bl_index_of(<PyObject *>r)
    cdef uint32_t *mt = bl_state_of(<PyObject *>r)
    if index[0] != st[624] or any(mt[i] != st[i] for i in range(624)):
        return False
    for _ in range(1000):  # past a regeneration of the 624 words
        if bl_random(index, mt) != twin.random():
            return False
    return r.random() == twin.random() and _random.Random.getstate(r) == _random.Random.getstate(twin)


_LAYOUT = 1 if _check_layout() else 0


def draws_in_place() -> bool:
    """Whether this module reads the caller's generator in place (else through getstate()/setstate())."""
    return _LAYOUT == 1
