"""Env-steps per second with random legal actions: VectorEnv for n = 1, 64, 4096, and the same games stepped
one at a time through the one-game API (Game.play_action) and the Gymnasium environment, for comparison.

Two rates: per second of wall-clock time, and per second of CPU time the process used (all its threads): on a
machine shared with other work the second shows what the code costs, the first what this run got.

    python bench_vector.py --seconds 5
"""

import argparse
import time

import numpy as np

import jungle


def vector_rates(n: int, seconds: float) -> tuple:
    """(steps per wall-clock second, steps per CPU second)."""
    env = jungle.VectorEnv(n, seed=1)
    steps, start, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        env.step(env.sample_actions())
        steps += n
    return steps / (time.perf_counter() - start), steps / max(time.process_time() - cpu, 1e-9)


def vector_rate(n: int, seconds: float) -> float:
    return vector_rates(n, seconds)[0]


def one_game_rate(seconds: float) -> float:
    rng = np.random.default_rng(1)
    game, steps, start = jungle.Game(), 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        game.observation()
        game.play_action(int(rng.choice(np.flatnonzero(game.action_mask()))))
        steps += 1
        if game.is_over() or len(game) >= 1000:
            game = jungle.Game()
    return steps / (time.perf_counter() - start)


def gym_rate(seconds: float) -> float:
    from jungle.gym import JungleEnv

    rng = np.random.default_rng(1)
    env = JungleEnv(opponent=None)
    _, info = env.reset(seed=1)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        steps += 1
        if terminated or truncated:
            _, info = env.reset()
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    print("| stepping | env-steps/s (wall clock) | env-steps per CPU-second |")
    print("|---|---|---|")
    for n in (1, 64, 4096):
        wall, cpu = vector_rates(n, args.seconds)
        print(f"| `VectorEnv({n})` | {wall:,.0f} | {cpu:,.0f} |")
    print(f"| one game, `Game.play_action` + `observation()` + `action_mask()` | {one_game_rate(args.seconds):,.0f} | |")
    print(f"| `jungle.gym.JungleEnv` (self-play) | {gym_rate(args.seconds):,.0f} | |")


if __name__ == "__main__":
    main()
