"""Generates a small endgame table (Elephant against Rat) and asks it about a position.

    python probe_tablebase.py --dir /tmp/tb --fen "7/7/7/r6/7/7/7/6E/7 w"
"""

import argparse

import doushouqi as dsq


def probe(directory: str, fen: str, materials=("E-r",)) -> dict:
    """Generates the materials into ``directory`` (kept when already there) and probes ``fen``."""
    dsq.Tablebases.generate(directory, list(materials), memory_mb=256)
    tables = dsq.Tablebases(directory)
    position = dsq.Position(fen)
    verdict = tables.probe(position)
    return {
        "wdl": verdict.wdl,
        "plies": verdict.plies,
        "best_moves": [str(m) for m in tables.best_moves(position)],
        "moves": {str(m): (p.wdl, p.plies) for m, p in tables.probe_moves(position) or []},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--fen", default="7/7/7/r6/7/7/7/6E/7 w")
    args = parser.parse_args()
    answer = probe(args.dir, args.fen)
    print(f"{args.fen}: {answer['wdl']}", f"in {answer['plies']} plies" if answer["plies"] is not None else "")
    print("best moves:", " ".join(answer["best_moves"]))


if __name__ == "__main__":
    main()
