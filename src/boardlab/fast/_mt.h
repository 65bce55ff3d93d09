/* Python's Mersenne Twister, drawing from a random.Random object's own state.
 *
 * random.Random.random() (CPython's Modules/_randommodule.c): two 32-bit words of MT19937, 53 bits of them
 * scaled to [0, 1). The compiled rollouts draw exactly these numbers from the caller's generator, so a search
 * with the compiled rollouts makes the same moves as with the pure-Python ones. The object's layout is
 * CPython's (PyObject_HEAD, the index, 624 words); each module checks it against the public getstate() and
 * against random() itself when it is imported, and falls back to getstate()/setstate() if they differ.
 */
#ifndef BOARDLAB_MT_H
#define BOARDLAB_MT_H
#include <Python.h>
#include <stdint.h>

#define BL_MT_N 624
#define BL_MT_M 397

typedef struct {
    PyObject_HEAD
    int index;
    uint32_t state[BL_MT_N];
} bl_RandomObject;

static inline uint32_t bl_genrand(int *index, uint32_t *mt)
{
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    if (*index >= BL_MT_N) {
        int kk;
        for (kk = 0; kk < BL_MT_N - BL_MT_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + BL_MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < BL_MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (BL_MT_M - BL_MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[BL_MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[BL_MT_N - 1] = mt[BL_MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        *index = 0;
    }
    y = mt[(*index)++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

static inline double bl_random(int *index, uint32_t *mt)
{
    uint32_t a = bl_genrand(index, mt) >> 5, b = bl_genrand(index, mt) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

static inline int *bl_index_of(PyObject *r) { return &((bl_RandomObject *)r)->index; }
static inline uint32_t *bl_state_of(PyObject *r) { return ((bl_RandomObject *)r)->state; }

#endif
