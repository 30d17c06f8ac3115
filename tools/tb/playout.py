#!/usr/bin/env python3
"""Plays a tablebase position out with the engine on both sides and checks every move against the tables.

    tools/tb/playout.py JUNGLE TABLE_DIR FEN [MOVETIME_MS]

`jungle uci` gets `TablebasePath TABLE_DIR` and plays both sides, MOVETIME_MS (default 50) per move. After
every move `jungle tb probe` gives the value of the new position: the winner must keep the win and each
move must shorten the distance by exactly one ply, so the game ends after the number of plies the tables
gave the start position. Prints one line per ply and exits 1 on the first move that breaks this.
"""
import subprocess
import sys


def probe(jungle, tables, fen):
    """(wdl, plies) of a position, or None when the game is over (no table covers a finished game)."""
    out = subprocess.run([jungle, "tb", "probe", "--dir", tables, "--fen", fen], capture_output=True, text=True)
    lines = out.stdout.split("\n")
    if out.returncode != 0 or not lines[0].startswith("wdl "):
        return None
    plies = lines[1].split()[1]
    return lines[0].split()[1], None if plies == "-" else int(plies)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    jungle, tables, start = sys.argv[1], sys.argv[2], sys.argv[3]
    movetime = sys.argv[4] if len(sys.argv) > 4 else "50"
    engine = subprocess.Popen([jungle, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        engine.stdin.write(line + "\n")

    def read_until(prefix):
        while True:
            line = engine.stdout.readline()
            if not line:
                sys.exit("the engine quit")
            if line.startswith(prefix):
                return line.strip()

    send("uci")
    read_until("uciok")
    send(f"setoption name TablebasePath value {tables}")
    send("isready")
    read_until("readyok")
    value = probe(jungle, tables, start)
    if value is None or value[1] is None:
        sys.exit(f"{start}: no decided table value to play out")
    print(f"start: {value[0]} in {value[1]} plies")
    expected = value[1]
    moves = []
    while True:
        position = f"position fen {start}" + (" moves " + " ".join(moves) if moves else "")
        send(position)
        send(f"go movetime {movetime}")
        best = read_until("bestmove").split()[1]
        if best in ("(none)", "0000"):
            break
        moves.append(best)
        send(f"position fen {start} moves " + " ".join(moves))
        send("d")
        fen = read_until("Fen:").split(" ", 1)[1]
        after = probe(jungle, tables, fen)
        if after is None:
            sys.exit(f"ply {len(moves)}: {best} leads to {fen}, which the tables do not cover")
        print(f"ply {len(moves)}: {best} -> {after[0]} in {after[1]}")
        wanted = ("loss" if value[0] == "win" else "win", value[1] - 1)
        if after != wanted:
            sys.exit(f"ply {len(moves)}: {best} gives {after}, the tables want {wanted}")
        value = after
    send("quit")
    if len(moves) != expected:
        sys.exit(f"the game took {len(moves)} plies, the tables said {expected}")
    print(f"ended after {len(moves)} plies, as the tables said")


if __name__ == "__main__":
    main()
