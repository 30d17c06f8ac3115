"""A tiny self-play data generator: the engine plays itself and every position becomes a training sample
(observation planes, policy over the 252 actions, value for the side to move), written to an .npz file.

The policy is the softmax of the engine's MultiPV scores over its best lines (temperature in centipawns);
moves are drawn from it, so games differ. The value is the final result from the side to move: +1, 0, -1.

    python selfplay_data.py --out data.npz --games 4 --depth 3
"""

import argparse

import numpy as np

import doushouqi as dsq


def policy_of(result, temperature: float) -> np.ndarray:
    policy = np.zeros(dsq.ACTION_COUNT, np.float32)
    scores = np.array(
        [line.score.cp if line.score.cp is not None else 100_000 * np.sign(line.score.mate or -1) for line in result.lines],
        np.float64,
    )
    weights = np.exp((scores - scores.max()) / temperature)
    for line, weight in zip(result.lines, weights):
        policy[line.pv[0].action()] = weight
    return policy / policy.sum()


def generate(out: str, games: int = 2, depth: int = 2, lines: int = 4, temperature: float = 40.0, seed: int = 0, max_plies: int = 120) -> dict:
    rng = np.random.default_rng(seed)
    engine = dsq.Engine(multipv=lines)
    observations, policies, values = [], [], []
    for _ in range(games):
        game = dsq.Game()
        movers = []
        while not game.is_over() and len(game) < max_plies:
            result = engine.search(game, depth=depth)
            policy = policy_of(result, temperature)
            observations.append(game.observation())
            policies.append(policy)
            movers.append(game.turn)
            game.play_action(int(rng.choice(dsq.ACTION_COUNT, p=policy)))
        outcome = game.outcome()
        winner = outcome.winner if outcome else None
        values.extend(0.0 if winner is None else (1.0 if side == winner else -1.0) for side in movers)
    data = {
        "observation": np.stack(observations),
        "policy": np.stack(policies),
        "value": np.array(values, np.float32),
    }
    np.savez_compressed(out, **data)
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", required=True)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--depth", type=int, default=2)
    args = parser.parse_args()
    data = generate(args.out, args.games, args.depth)
    print(f"{len(data['value'])} samples written to {args.out}")


if __name__ == "__main__":
    main()
