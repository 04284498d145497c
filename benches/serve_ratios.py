"""The service against the library, side by side in one run (issue 43's three ratios; ``make
bench``; docs/performance.md, "The solver service"): each round measures, in turn,

- in-process ``Solver.solve`` on one hand (median µs over the round's hands), and the same
  hands as single-hand ``POST /v1/solve`` requests with ``detail: decision`` from a lean
  keep-alive HTTP/1.1 client (a bare socket, prebuilt requests): the p50 ratio;
- the same hands as ``serve --stdio`` lines (write a line, read its answer): the p50 ratio;
- ``solve_batch`` on 256 hands and 256-hand ``detail: decision`` requests: the hands/s ratio.

Rounds alternate the two sides of every ratio, so a change in the machine's load falls on
both; the report gives each ratio's median over the rounds with its spread (lowest, highest).
Every HTTP and stdio answer is checked against the library's own (decision, setting, value),
on every preset asked for. The server listens on 127.0.0.1 only.

Run: ``python benches/serve_ratios.py [--rounds 7] [--hands 300] [--presets maceplay,...]
[--players 4]``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

import chinese_poker as cp
from serve_load import env, hands_text  # the same hands and environment as the load test


class Lean:
    """One keep-alive HTTP/1.1 connection: a prebuilt request out, its answer's body in."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.file = self.sock.makefile("rb")

    @staticmethod
    def request(body: bytes) -> bytes:
        head = b"POST /v1/solve HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
        return head + b"content-length: %d\r\n\r\n" % len(body) + body

    def ask(self, request: bytes) -> bytes:
        self.sock.sendall(request)
        status = self.file.readline()
        length = 0
        while (line := self.file.readline()) != b"\r\n":
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        body = self.file.read(length)
        assert status.split(b" ")[1] == b"200", body
        return body


def timed(call: Callable[[], object]) -> tuple[float, object]:
    t = time.perf_counter()
    out = call()
    return time.perf_counter() - t, out


def same(answer: dict, solver: cp.Solver, hand: str) -> None:
    """An answer's decision and value are the library's."""
    want = solver.solve(hand)
    decision = want.as_decision().to_dict()
    got = {k: answer[k] for k in decision}
    assert got == json.loads(json.dumps(decision)), (hand, answer, decision)
    assert answer["value"] == want.value, (hand, answer["value"], want.value)


def measure(rules: str, players: int, rounds: int, n: int) -> dict[str, list[float]]:
    solver = cp.Solver(rules, players)
    ask = {"rules": rules, "players": players, "detail": "decision"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "chinese_poker", "serve", "--port", "0"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env=env(),
    )  # fmt: skip
    pipe = subprocess.Popen(
        [sys.executable, "-m", "chinese_poker", "serve", "--stdio"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env(),
    )  # fmt: skip
    assert proc.stderr is not None and pipe.stdin is not None and pipe.stdout is not None
    port = int(re.search(r"http://127\.0\.0\.1:(\d+)", proc.stderr.readline()).group(1))  # type: ignore[union-attr]
    out: dict[str, list[float]] = {"http": [], "stdio": [], "batch": []}
    try:
        lean = Lean(port)
        for r in range(rounds):
            hands = hands_text(n, 1000 * r + 1)
            singles = [Lean.request(json.dumps({**ask, "hands": [h]}).encode()) for h in hands]
            lines = [
                json.dumps({**ask, "op": "solve", "hands": [h]}).encode() + b"\n" for h in hands
            ]
            lib, http, stdio = [], [], []
            for h, req, line in zip(hands, singles, lines, strict=True):
                lib.append(timed(lambda h=h: solver.solve(h))[0])  # type: ignore[misc]
                s, body = timed(lambda req=req: lean.ask(req))  # type: ignore[misc]
                http.append(s)
                same(json.loads(body)["solutions"][0], solver, h)  # type: ignore[arg-type]

                def line_answer(line: bytes = line) -> bytes:
                    pipe.stdin.write(line)  # type: ignore[union-attr]
                    pipe.stdin.flush()  # type: ignore[union-attr]
                    return pipe.stdout.readline()  # type: ignore[union-attr]

                s, text = timed(line_answer)
                stdio.append(s)
                same(json.loads(text)["solutions"][0], solver, h)  # type: ignore[arg-type]
            base = statistics.median(lib)
            out["http"].append(statistics.median(http) / base)
            out["stdio"].append(statistics.median(stdio) / base)
            big = hands_text(256, 1000 * r + 2)
            codes = cp.parse_hands(big)
            request = Lean.request(json.dumps({**ask, "hands": big}).encode())
            batch_s, served_s = [], []
            for _ in range(5):
                batch_s.append(timed(lambda codes=codes: solver.solve_batch(codes))[0])  # type: ignore[misc]
                s, body = timed(lambda request=request: lean.ask(request))  # type: ignore[misc]
                served_s.append(s)
            got = json.loads(body)["solutions"]  # type: ignore[arg-type]
            for i in range(0, 256, 37):
                same(got[i], solver, big[i])
            out["batch"].append(statistics.median(batch_s) / statistics.median(served_s))
        return out
    finally:
        pipe.stdin.close()
        pipe.wait(timeout=60)
        proc.terminate()
        proc.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--hands", type=int, default=300, help="single-hand requests a round")
    parser.add_argument("--presets", default=",".join(cp._core.PRESET_NAMES))
    parser.add_argument("--players", default="2,4")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; client, "
          "server and library share it\n")  # fmt: skip
    print(
        "| rules | players | HTTP 1 hand p50 ÷ `Solver.solve` p50 (target ≤ 8) | stdio 1 hand "
        "p50 ÷ `Solver.solve` p50 (≤ 3) | HTTP 256 hands ÷ `solve_batch`, hands/s (≥ 0.8) |"
    )
    print("|---|---:|---|---|---|")
    for rules in args.presets.split(","):
        for players in map(int, args.players.split(",")):
            m = measure(rules, players, args.rounds, args.hands)
            cell = lambda v: f"{statistics.median(v):.2f} ({min(v):.2f}–{max(v):.2f})"  # noqa: E731
            print(f"| {rules} | {players} | {cell(m['http'])} | {cell(m['stdio'])} | "
                  f"{cell(m['batch'])} |", flush=True)  # fmt: skip
    print(
        f"\nmedian over {args.rounds} rounds (lowest–highest); every answer checked against "
        "the library's"
    )


if __name__ == "__main__":
    main()
