"""A match: a random player (Blue) against the engine (Red), printed as PGN.

    python random_vs_engine.py --games 4 --depth 3
"""

import argparse
import random

import doushouqi as dsq


def play(games: int = 2, depth: int = 2, seed: int = 0, rules: str = "standard") -> list:
    """Plays the games and returns their PGN records."""
    rng = random.Random(seed)
    engine = dsq.Engine()
    records = []
    for number in range(1, games + 1):
        game = dsq.Game(rules=rules)
        engine.clear()
        while not game.is_over() and len(game) < 400:
            if game.turn == dsq.Side.BLUE:
                game.play(rng.choice(game.legal_moves))
            else:
                game.play(engine.search(game, depth=depth).best_move)
        if not game.is_over():
            game.declare(None, "adjudication")
        records.append(dsq.pgn.PgnGame(game, [("White", "random"), ("Black", f"engine depth {depth}"), ("Round", str(number))]))
    return records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--rules", default="standard")
    args = parser.parse_args()
    records = play(args.games, args.depth, rules=args.rules)
    for record in records:
        print(record)
    print("engine score:", sum({"0-1": 1, "1/2-1/2": 0.5}.get(r.result(), 0) for r in records), "/", len(records))


if __name__ == "__main__":
    main()
