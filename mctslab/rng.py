"""Explicit random-number state for numba kernels.

Seeding NumPy does not seed numba's internal generator, and numba's generator is
per-thread global state that a cached kernel cannot be handed. So every kernel that
draws random numbers takes an explicit ``state`` array (``uint64[4]``) and advances
it in place with xoshiro256** (Blackman & Vigna, 2018). States are derived from a
:class:`numpy.random.SeedSequence`, so per-task seeds spawned from one experiment
seed give independent, reproducible streams.

Kernel-side API (all ``@njit(cache=True)``)::

    rng_next(state)        -> uint64      raw 64 random bits
    rng_random(state)      -> float64     uniform in [0, 1)
    rng_below(state, n)    -> int64       uniform integer in [0, n), n >= 1

Python-side API::

    seed_state(seed)       -> np.ndarray  uint64[4], seed = int | SeedSequence | None
    spawn_states(seed, k)  -> np.ndarray  uint64[k, 4], independent streams
"""

from __future__ import annotations

import numpy as np

from mctslab.core.jit import njit

__all__ = ["seed_state", "spawn_states", "rng_next", "rng_random", "rng_below"]

STATE_WORDS = 4


def _as_seed_sequence(seed) -> np.random.SeedSequence:
    if isinstance(seed, np.random.SeedSequence):
        return seed
    return np.random.SeedSequence(seed)


def seed_state(seed=None) -> np.ndarray:
    """A fresh xoshiro256** state (``uint64[4]``) from an int, a SeedSequence or None."""
    state = _as_seed_sequence(seed).generate_state(STATE_WORDS, dtype=np.uint64)
    if not state.any():  # the all-zero state is the one fixed point of xoshiro
        state[0] = np.uint64(0x9E3779B97F4A7C15)
    return np.ascontiguousarray(state, dtype=np.uint64)


def spawn_states(seed, count: int) -> np.ndarray:
    """``count`` independent states (``uint64[count, 4]``) spawned from one seed."""
    children = _as_seed_sequence(seed).spawn(count)
    out = np.empty((count, STATE_WORDS), dtype=np.uint64)
    for i, child in enumerate(children):
        out[i] = seed_state(child)
    return out


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True)
def rng_next(state):
    """Advance ``state`` (uint64[4]) in place and return 64 random bits (xoshiro256**)."""
    s0 = state[0]
    s1 = state[1]
    s2 = state[2]
    s3 = state[3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return result


@njit(cache=True)
def rng_random(state):
    """A float64 uniform in [0, 1) from the top 53 bits."""
    return np.float64(rng_next(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def rng_below(state, n):
    """An integer uniform in [0, n) for 1 <= n < 2**32 (Lemire's multiply-shift, unbiased).

    Uses the high 32 bits of one draw. The nearly-divisionless form: the modulo that sets the
    rejection threshold is computed only when the low word falls below ``n`` (rarely), and a
    draw is rejected (probability < n / 2**32) exactly when the plain form would reject it, so
    the stream is the same.
    """
    bound = np.uint64(n)
    x = rng_next(state) >> np.uint64(32)
    m = x * bound
    low = m & np.uint64(0xFFFFFFFF)
    if low < bound:
        threshold = (np.uint64(1 << 32) - bound) % bound
        while low < threshold:
            x = rng_next(state) >> np.uint64(32)
            m = x * bound
            low = m & np.uint64(0xFFFFFFFF)
    return np.int64(m >> np.uint64(32))
