#!/usr/bin/env python3
"""Nodes per CPU-second of the net against the hand-written evaluation, on the bench's standard-rules positions.

usage: tools/nnue/speed.py JUNGLE [DEPTH] [RUNS]

JUNGLE is the `jungle` binary. The positions are the standard-rules lines of `jungle bench` (the only rules the
shipped net evaluates). For each run and each evaluation it starts `JUNGLE uci`, sets `Use NNUE`, searches every
position to DEPTH (15) from a cleared table, and reads the engine's CPU time (user + system, from the operating
system's accounting of that process, so other jobs on a busy machine do not count) and the nodes of the last
`info` line of each search. Prints each run and the median nodes per CPU-second of RUNS (3) runs. The CPU time
includes starting the engine and reading the net (a few milliseconds); the node counts are deterministic.
"""

import os
import re
import statistics
import subprocess
import sys


def standard_positions(jungle):
    out = subprocess.run([jungle, "bench", "1"], capture_output=True, text=True, check=True)
    text = out.stdout + out.stderr
    # "position  1/54 standard   335 nodes  FEN (what)"; a FEN is six fields.
    return [
        " ".join(m.group(1).split()[:6])
        for m in re.finditer(r"^position +\d+/\d+ standard +\d+ nodes +(.*)$", text, re.M)
    ]


def search_all(jungle, fens, depth, nnue):
    """(nodes, CPU seconds) of one engine process searching every position."""
    engine = subprocess.Popen(
        [jungle, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def read_until(prefix):
        lines = []
        for line in engine.stdout:
            lines.append(line)
            if line.startswith(prefix):
                return lines
        raise RuntimeError(f"the engine stopped before {prefix!r}")

    send("uci")
    read_until("uciok")
    send(f"setoption name Use NNUE value {'true' if nnue else 'false'}")
    nodes = 0
    for fen in fens:
        send("ucinewgame")
        send(f"position fen {fen}")
        send(f"go depth {depth}")
        counts = [int(m.group(1)) for line in read_until("bestmove") for m in [re.search(r" nodes (\d+)", line)] if m]
        nodes += counts[-1]
    send("quit")
    engine.stdin.close()
    _, _, usage = os.wait4(engine.pid, 0)
    return nodes, usage.ru_utime + usage.ru_stime


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    jungle = sys.argv[1]
    depth = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    fens = standard_positions(jungle)
    if not fens:
        sys.exit(f"{jungle} bench listed no standard-rules positions")
    rates = {"hand": [], "nnue": []}
    for run in range(runs):
        for name in rates:
            nodes, cpu = search_all(jungle, fens, depth, name == "nnue")
            rates[name].append(nodes / cpu)
            print(f"run {run + 1} {name}: {nodes} nodes in {cpu:.2f} CPU-s, {nodes / cpu / 1e6:.2f} M nodes/CPU-s")
    hand, nnue = (statistics.median(rates[n]) for n in ("hand", "nnue"))
    print(
        f"{len(fens)} positions, depth {depth}, median of {runs}: hand-written {hand / 1e6:.2f} M, "
        f"NNUE {nnue / 1e6:.2f} M nodes/CPU-s ({(nnue / hand - 1) * 100:+.0f}%)"
    )


if __name__ == "__main__":
    main()
