"""Tabu queues of the state-tabu paper (Itoh & Ohta 2016, Sec. 4.3-4.4, Eqs. 6-7 and 9-11), numba.

Each leaf that runs playouts owns a *queue set*: ``M`` FIFO queues ``Q_1..Q_M`` (one per
playout move number ``m``), each with exactly ``L_k`` slots. A queue set is a row of::

    queues[Q, M, L]  uint64   slot contents; NIL (0) is an empty slot
    heads[Q, M]      int32    the slot the next enqueue writes (the front, dequeued by it)

``L`` is the allocated capacity (the initial tabu size); ``size`` (``L_k`` of the current
search) uses the first ``size`` slots of each queue. Enqueue writes the rear and dequeues the
front in one step, since every queue always holds exactly ``size`` elements (NIL included):
the new element overwrites the oldest one, and the head advances.

Keys: a position hash for the state tabu ("-hash"), a move (point + 1) for the move tabu
("gTabuX"); :func:`tabu_key` maps a raw value to a key that is never NIL.

Update rules (``mode``):
- ``SEQUENTIAL`` (Eqs. 6-7, also the move tabu): candidate in ``Q_m`` -> enqueue NIL, reject;
  otherwise enqueue the key and accept.
- ``BATCH_ON_LOSS`` (Eqs. 9-11): candidate in ``Q_m`` -> enqueue NIL, reject; otherwise accept
  and keep the key in ``buf[m]``; after the playout, only if the player who made playout move 1
  lost, enqueue every ``buf[m]`` (:func:`tabu_flush`).
After ``size`` consecutive NILs a queue holds only NILs, so a candidate is always eventually
accepted.
"""

from __future__ import annotations

import numpy as np

from mctslab.core.jit import njit

NIL = np.uint64(0)
NONE, SEQUENTIAL, BATCH_ON_LOSS = 0, 1, 2


def make_queues(queue_sets: int, moves: int, capacity: int) -> tuple[np.ndarray, np.ndarray]:
    """``(queues uint64[Q, M, L], heads int32[Q, M])``, all slots NIL."""
    return (np.zeros((queue_sets, moves, max(capacity, 1)), np.uint64),
            np.zeros((queue_sets, moves), np.int32))


@njit(cache=True, inline="always")
def tabu_key(value):
    """A raw hash or move code as a queue key: never NIL (a zero hash maps to 1, its odds are
    2^-64; moves are passed as point + 1)."""
    key = np.uint64(value)
    if key == NIL:
        return np.uint64(1)
    return key


@njit(cache=True)
def tabu_contains(queues, q, m, key, size):
    """True when ``key`` is in queue ``m`` of queue set ``q`` (its first ``size`` slots)."""
    for slot in range(size):
        if queues[q, m, slot] == key:
            return True
    return False


@njit(cache=True)
def tabu_push(queues, heads, q, m, key, size):
    """Enqueue ``key`` at the rear of queue ``m`` and dequeue its front (Eq. 7)."""
    if size <= 0:
        return
    head = heads[q, m]
    if head >= size:  # the size shrank since the last push (a later game move)
        head = 0
    queues[q, m, head] = key
    head += 1
    heads[q, m] = 0 if head == size else head


@njit(cache=True)
def tabu_check(queues, heads, q, m, key, size, mode, buf):
    """Apply the paper's rule to candidate ``key`` at playout move ``m`` (0-based): returns
    True when the candidate is accepted, False when it is a tabu candidate (rejected)."""
    if mode == NONE or size <= 0:
        return True
    if tabu_contains(queues, q, m, key, size):
        tabu_push(queues, heads, q, m, NIL, size)
        return False
    if mode == SEQUENTIAL:
        tabu_push(queues, heads, q, m, key, size)
    else:
        buf[m] = key
    return True


@njit(cache=True)
def tabu_flush(queues, heads, q, buf, used, size, lost):
    """After a batch-on-loss playout: if the player of playout move 1 ``lost``, enqueue
    ``buf[0:used]`` into ``Q_1..Q_used`` (Eq. 11); in any case clear the buffer."""
    for m in range(used):
        if lost and buf[m] != NIL:
            tabu_push(queues, heads, q, m, buf[m], size)
        buf[m] = NIL
