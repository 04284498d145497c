"""Ctrl-C stops a long batch solve: the GIL is released, but the work checks for signals
between chunks and raises KeyboardInterrupt instead of running to the end."""

from __future__ import annotations

import os
import signal
import threading
import time

import chinese_poker as cp
import numpy as np
import pytest


def test_ctrl_c_interrupts_solve_batch() -> None:
    rng = np.random.default_rng(0)
    # About five seconds of work on one thread: far longer than the 0.2 s before the signal.
    hands = np.array([rng.permutation(52)[:13] for _ in range(1000)], np.uint8)
    hands = np.tile(hands, (200, 1))
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            cp.solve_batch(hands, "maceplay", 4, threads=1)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    # the extension is still usable afterwards
    assert cp.solve_batch(hands[:3], "maceplay", 4).settings.shape == (3, 13)


def test_ctrl_c_interrupts_monte_carlo() -> None:
    hand = "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"
    cp.solve(hand, "maceplay", 2)  # load the tables before the timer starts
    # 10^6 samples is about half a minute on one thread; the signal comes after 0.3 s
    slow = cp.MonteCarlo(samples=10**6, seed=1, threads=1, confidence=0)  # no early stop
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    start = time.perf_counter()
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            cp.solve(hand, "maceplay", 2, slow)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert time.perf_counter() - start < 5
    # the extension is still usable, and a short run gives the same answer as before
    quick = cp.MonteCarlo(samples=50, seed=1, threads=1)
    assert cp.solve(hand, "maceplay", 2, quick) == cp.solve(hand, "maceplay", 2, quick)
