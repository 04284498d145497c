"""What ``chinese-poker serve`` costs over calling the solver in-process, measured in one run
(``make bench``; docs/performance.md, "The solver service").

A server is started on a free port of 127.0.0.1 (only: this sends load to nothing else), and a
bounded asyncio ``httpx`` loop sends it requests: every phase stops after its request count or
its time, whichever comes first. Side by side in the same run: ``Solver.solve`` (one hand at a
time) and ``solve_batch`` (arrays of 256 hands) in this process.

- single-hand TableEV requests at concurrency 1, 8 and 64: p50 and p99 latency, hands/s;
- 256-hand requests: hands/s against ``solve_batch``;
- a soak at concurrency 64 (``--soak`` seconds, 60 by default): errors, and the server's
  resident memory after the first 10 s and at the end;
- the stdio mode: one-hand lines, hands/s against ``solve_batch``, and the first answer's time
  while standard input is still open.

The budgets (issue 18) are reported, not asserted: single-hand p50 at most 1 ms over the
in-process call at concurrency 1; 256-hand requests at least 70% of ``solve_batch``'s hands/s;
the soak with zero errors and memory within 10%.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
import numpy as np

RULES, PLAYERS = "maceplay", 4


def hands_text(n: int, seed: int) -> list[str]:
    import chinese_poker as cp

    rng = np.random.default_rng(seed)
    return [" ".join(str(cp.Card(int(c))) for c in rng.permutation(52)[:13]) for _ in range(n)]


def env() -> dict[str, str]:
    out = dict(os.environ)
    out.pop("CHINESE_POKER_TOKEN", None)
    return out


def start_server(workers: int | None) -> tuple[subprocess.Popen[str], str]:
    extra = ["--workers", str(workers)] if workers else []
    proc = subprocess.Popen(
        [sys.executable, "-m", "chinese_poker", "serve", "--host", "127.0.0.1", "--port", "0",
         *extra],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env=env(),
    )  # fmt: skip
    assert proc.stderr is not None
    line = proc.stderr.readline()
    match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", line)
    if match is None:
        proc.kill()
        raise SystemExit(f"the server did not start: {line}")
    url = match.group(1)
    for _ in range(600):
        try:
            if httpx.get(url + "/healthz", timeout=5).status_code == 200:
                return proc, url
        except httpx.TransportError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server never answered")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def load(
    url: str,
    bodies: list[bytes],
    concurrency: int,
    requests: int,
    seconds: float,
    probe: tuple[int, list[tuple[float, float]]] | None = None,
) -> tuple[list[float], int, int, float]:
    """``requests`` requests (cycling through ``bodies``) from ``concurrency`` clients, or as
    many as ``seconds`` allow: latencies (s), answers, errors, elapsed (s). ``probe``: a pid
    whose RSS is sampled every second into the list."""
    latencies: list[float] = []
    errors = 0
    sent = 0
    start = time.perf_counter()
    stop = start + seconds
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    headers = {"content-type": "application/json"}
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=60) as client:

        async def worker() -> None:
            nonlocal sent, errors
            while sent < requests and time.perf_counter() < stop:
                body = bodies[sent % len(bodies)]
                sent += 1
                t = time.perf_counter()
                try:
                    r = await client.post("/v1/solve", content=body, headers=headers)
                    ok = r.status_code == 200
                except httpx.HTTPError:
                    ok = False
                latencies.append(time.perf_counter() - t)
                errors += not ok

        await _gather(worker, concurrency, probe, start, stop, lambda: sent >= requests)
    return latencies, len(latencies), errors, time.perf_counter() - start


async def _gather(
    worker: Callable[[], Awaitable[None]],
    concurrency: int,
    probe: tuple[int, list[tuple[float, float]]] | None,
    start: float,
    stop: float,
    done: Callable[[], bool],
) -> None:
    """Runs ``concurrency`` workers to the end and, with a probe (the server's pid and a list),
    samples the server's resident memory once a second meanwhile."""

    async def sampler(pid: int, samples: list[tuple[float, float]]) -> None:
        while time.perf_counter() < stop and not done():
            samples.append((time.perf_counter() - start, rss_mb(pid)))
            await asyncio.sleep(1)

    tasks = [worker() for _ in range(concurrency)]
    if probe is not None:
        tasks.append(sampler(*probe))
    await asyncio.gather(*tasks)


async def raw_load(
    url: str,
    bodies: list[bytes],
    concurrency: int,
    requests: int,
    seconds: float,
    probe: tuple[int, list[tuple[float, float]]] | None = None,
) -> tuple[list[float], int, int, float]:
    """The same bounded loop as :func:`load` on bare asyncio streams (HTTP/1.1 keep-alive, one
    request at a time per connection): a client that costs far less CPU than httpx, so the
    figures say more about the server when client and server share a small machine."""
    host, port = url.removeprefix("http://").split(":")
    heads = [
        b"POST /v1/solve HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % (host.encode(), len(b)) + b
        for b in bodies
    ]
    latencies: list[float] = []
    errors = sent = 0
    start = time.perf_counter()
    stop = start + seconds

    async def worker() -> None:
        nonlocal sent, errors
        reader, writer = await asyncio.open_connection(host, int(port))
        try:
            while sent < requests and time.perf_counter() < stop:
                request = heads[sent % len(heads)]
                sent += 1
                t = time.perf_counter()
                writer.write(request)
                status = (await reader.readline()).split(b" ")[1]
                length = 0
                while (line := await reader.readline()) != b"\r\n":
                    name, _, value = line.partition(b":")
                    if name.lower() == b"content-length":
                        length = int(value)
                await reader.readexactly(length)
                latencies.append(time.perf_counter() - t)
                errors += status != b"200"
        finally:
            writer.close()

    await _gather(worker, concurrency, probe, start, stop, lambda: sent >= requests)
    return latencies, len(latencies), errors, time.perf_counter() - start


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


def in_process(hands: list[str], big: int, repeats: int) -> tuple[float, float, float]:
    """Median µs of ``Solver.solve`` per hand, of ``Solver.solve`` + ``to_dict``, and
    ``solve_batch`` hands/s on arrays of ``big`` hands."""
    import chinese_poker as cp

    solver = cp.Solver(RULES, PLAYERS)
    solver.solve(hands[0])
    per = []
    for h in hands:
        t = time.perf_counter()
        solver.solve(h)
        per.append(time.perf_counter() - t)
    per_dict = []
    for h in hands:
        t = time.perf_counter()
        solver.solve(h).to_dict()
        per_dict.append(time.perf_counter() - t)
    codes = cp.parse_hands(hands_text(big, 99))
    rates = []
    for _ in range(repeats):
        t = time.perf_counter()
        solver.solve_batch(codes)
        rates.append(big / (time.perf_counter() - t))
    return statistics.median(per) * 1e6, statistics.median(per_dict) * 1e6, statistics.median(rates)


def stdio(
    lines: list[str], per_line: int = 1, python: str = sys.executable, decision: bool = False
) -> tuple[float, float]:
    """The stdio mode of ``python``'s package, ``per_line`` hands a line (``detail`` decision
    when more than one, or with ``decision``): seconds to the first answer (input still open)
    and hands/s."""
    proc = subprocess.Popen(
        [python, "-m", "chinese_poker", "serve", "--stdio"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1, env=env(),
        cwd="/",  # the installed package of `python`, not a checkout's sources
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    detail = {"detail": "decision"} if per_line > 1 or decision else {}
    requests = [
        json.dumps({"op": "solve", "id": i, "hands": lines[j : j + per_line], **detail}) + "\n"
        for i, j in enumerate(range(0, len(lines), per_line))
    ]
    # warm up (tables loaded), then the first answer while the input stays open
    proc.stdin.write(requests[0])
    proc.stdin.flush()
    proc.stdout.readline()
    t = time.perf_counter()
    proc.stdin.write(requests[1])
    proc.stdin.flush()
    first = json.loads(proc.stdout.readline())
    first_s = time.perf_counter() - t
    assert first["id"] == 1 and "solutions" in first

    import threading

    def feed() -> None:
        assert proc.stdin is not None
        for r in requests[2:]:
            proc.stdin.write(r)
        proc.stdin.close()

    t = time.perf_counter()
    writer = threading.Thread(target=feed)
    writer.start()
    answered = sum(1 for line in proc.stdout if '"solutions"' in line)
    elapsed = time.perf_counter() - t
    writer.join()
    proc.wait(timeout=60)
    assert answered == len(requests) - 2, answered
    return first_s, answered * per_line / elapsed


def stdio_only(lines: int, rounds: int, before: str | None) -> None:
    """``--stdio-only``: one-hand lines (``detail`` full, and decision) against the in-process
    ``Solver.solve`` (its µs per hand, and with ``to_dict()``), ``rounds`` times, alternating
    with the same phases of ``before`` (another build's Python) when given: medians and
    ratios, side by side in one run."""
    hands = hands_text(1000, 1)
    builds = {"this build": sys.executable, **({"before": before} if before else {})}
    rates: dict[tuple[str, str], list[float]] = {}
    solve_us: list[tuple[float, float]] = []
    for r in range(rounds):
        solve_us.append(in_process(hands, 256, 1)[:2])
        for name, python in builds.items():
            for detail in ("full", "decision"):
                text = hands_text(lines + 2, 100 + r)
                _, rate = stdio(text, python=python, decision=detail == "decision")
                rates.setdefault((name, detail), []).append(rate)
    solve = statistics.median(u for u, _ in solve_us)
    solve_dict = statistics.median(d for _, d in solve_us)
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; {rounds} "
          f"rounds of {lines} one-hand lines ({RULES}, {PLAYERS} players)\n")  # fmt: skip
    print(f"in-process `Solver.solve`: {solve:.1f} µs per hand ({1e6 / solve:,.0f} hands/s); "
          f"with `to_dict()`: {solve_dict:.1f} µs\n")  # fmt: skip
    print(
        "| stdio, one-hand lines | hands/s (median, min-max) | µs per hand | "
        "× `Solver.solve` | × `Solver.solve` + `to_dict` |\n|---|---|---|---|---|"
    )
    for (name, detail), got in rates.items():
        med = statistics.median(got)
        us = 1e6 / med
        print(f"| {name}, detail {detail} | {med:,.0f} ({min(got):,.0f}-{max(got):,.0f}) | "
              f"{us:.1f} | {us / solve:.1f} | {us / solve_dict:.1f} |")  # fmt: skip
    if before:
        for detail in ("full", "decision"):
            now = statistics.median(rates[("this build", detail)])
            then = statistics.median(rates[("before", detail)])
            print(f"\ndetail {detail}: this build {now / then:.2f}× the hands/s of before")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=3000, help="per concurrency level")
    parser.add_argument("--seconds", type=float, default=20, help="most seconds per level")
    parser.add_argument("--big-requests", type=int, default=60, help="256-hand requests")
    parser.add_argument("--soak", type=float, default=60, help="seconds at concurrency 64")
    parser.add_argument("--stdio-lines", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=None, help="server --workers")
    parser.add_argument("--stdio-only", action="store_true", help="only the stdio phase")
    parser.add_argument("--rounds", type=int, default=5, help="--stdio-only: rounds")
    parser.add_argument(
        "--before", default=None, help="--stdio-only: the python of another build, side by side"
    )
    args = parser.parse_args()
    if args.stdio_only:
        stdio_only(args.stdio_lines, args.rounds, args.before)
        return

    hands = hands_text(1000, 1)
    solve_us, solve_dict_us, batch_rate = in_process(hands, 256, 20)
    singles = [json.dumps({"hands": [h], "rules": RULES}).encode() for h in hands]
    big_hands = hands_text(256 * 4, 2)
    bigs = {
        detail: [
            json.dumps({"hands": big_hands[i : i + 256], "rules": RULES, "detail": detail}).encode()
            for i in range(0, len(big_hands), 256)
        ]
        for detail in ("full", "decision")
    }

    proc, url = start_server(args.workers)
    rows = []
    try:
        asyncio.run(load(url, singles, 4, 200, 10))  # warm-up
        for c in (1, 8, 64):
            lat, n, errors, elapsed = asyncio.run(
                load(url, singles, c, args.requests, args.seconds)
            )
            rows.append((f"1 hand, concurrency {c}", pct(lat, 50) * 1e3, pct(lat, 99) * 1e3,
                         n / elapsed, errors))  # fmt: skip
        for c in (1, 8, 64):
            lat, n, errors, elapsed = asyncio.run(
                raw_load(url, singles, c, args.requests, args.seconds)
            )
            rows.append((f"1 hand, concurrency {c}, bare asyncio client", pct(lat, 50) * 1e3,
                         pct(lat, 99) * 1e3, n / elapsed, errors))  # fmt: skip
        batch_rate_big = in_process(hands[:10], 256, 20)[2]  # the same moment's load
        big_rates = []
        for detail, c in (("full", 1), ("full", 2), ("decision", 1), ("decision", 2)):
            lat, n, errors, elapsed = asyncio.run(
                raw_load(url, bigs[detail], c, args.big_requests, args.seconds)
            )
            big_rates.append(256 * (n - errors) / elapsed)
            rows.append((f"256 hands, detail {detail}, concurrency {c}, bare", pct(lat, 50) * 1e3,
                         pct(lat, 99) * 1e3, 256 * n / elapsed, errors))  # fmt: skip
        samples: list[tuple[float, float]] = []
        lat, n, soak_errors, elapsed = asyncio.run(
            raw_load(url, singles, 64, 10**9, args.soak, (proc.pid, samples))
        )
        rows.append((f"soak: 1 hand, concurrency 64, {elapsed:.0f} s, bare", pct(lat, 50) * 1e3,
                     pct(lat, 99) * 1e3, n / elapsed, soak_errors))  # fmt: skip
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    batch_rate_stdio = in_process(hands[:10], 256, 20)[2]
    first_s, stdio_rate = stdio(hands_text(args.stdio_lines + 2, 3))
    _, stdio_big_rate = stdio(hands_text(256 * (args.stdio_lines // 64 + 2), 4), 256)

    after10 = next((mb for t, mb in samples if t >= 10), samples[0][1] if samples else 0.0)
    end = samples[-1][1] if samples else 0.0
    p50_c1 = min(rows[0][1], rows[3][1])
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; "
          f"client and server share it\n")  # fmt: skip
    print("| in-process | |\n|---|---|")
    print(f"| `Solver.solve`, µs per hand (median) | {solve_us:.0f} |")
    print(f"| `Solver.solve` + `to_dict()`, µs per hand (median) | {solve_dict_us:.0f} |")
    print(f"| `solve_batch`, 256 hands, hands/s (median; at the start, before the 256-hand "
          f"requests, before stdio) | {batch_rate:,.0f}, {batch_rate_big:,.0f}, "
          f"{batch_rate_stdio:,.0f} |\n")  # fmt: skip
    print("| HTTP `POST /v1/solve` (client: httpx unless bare) | p50 ms | p99 ms | hands/s | "
          "errors |\n|---|---|---|---|---|")  # fmt: skip
    for name, p50, p99, rate, errors in rows:
        print(f"| {name} | {p50:.2f} | {p99:.2f} | {rate:,.0f} | {errors} |")
    print(f"\n| stdio, 1-hand lines | first answer {first_s * 1e3:.2f} ms (input open) | "
          f"{stdio_rate:,.0f} hands/s = {stdio_rate / batch_rate_stdio:.0%} "
          "of solve_batch |")  # fmt: skip
    print(f"| stdio, 256-hand lines, detail decision | | {stdio_big_rate:,.0f} hands/s = "
          f"{stdio_big_rate / batch_rate_stdio:.0%} of solve_batch |\n")  # fmt: skip
    over = p50_c1 - solve_us / 1e3
    best_big = max(big_rates)
    drift = (end - after10) / after10 if after10 else float("nan")
    print("budgets:")
    print(f"- single-hand p50 over in-process at concurrency 1 (the better client): {over:.2f} ms "
          "(budget 1 ms): "
          f"{'met' if over <= 1 else 'NOT met'}")  # fmt: skip
    met = "met" if best_big >= 0.7 * batch_rate_big else "NOT met"
    print(f"- 256-hand requests: {best_big:,.0f} hands/s = {best_big / batch_rate_big:.0%} of "
          f"solve_batch (budget 70%): {met}")  # fmt: skip
    print(f"- soak: {soak_errors} errors; RSS {after10:.1f} MB after 10 s, {end:.1f} MB at the "
          f"end ({drift:+.1%}; budget ±10%): "
          f"{'met' if soak_errors == 0 and abs(drift) <= 0.10 else 'NOT met'}")  # fmt: skip


if __name__ == "__main__":
    main()
