"""Env-steps per second with random legal actions, every row of the package README's speed table, with the
machine's load average (the figures of a shared machine mean little without it).

Rows: `VectorEnv(n)` stepped with its own `sample_actions()` for several n; `VectorEnv(4096)` driven by a fixed
policy output (probabilities or logits) sampled inside Rust (`sample_masked`, `step_logits`) and, for
comparison, the same sampling done in numpy; one game through the Python API (`Position.legal_moves` +
`push`, `Game.play_action`); the Gymnasium environments; and anchors from other libraries when they are
installed (pgx on CPU, OpenSpiel, python-chess), else "not installed".

Two rates: per second of wall-clock time, and per second of CPU time the process used (all its threads): on a
machine shared with other work the second shows what the code costs, the first what this run got.

    python bench.py --seconds 5
"""

from __future__ import annotations

import argparse
import os
import random
import time
from typing import Callable, Optional, Tuple

import numpy as np

import doushouqi as dsq

Rates = Tuple[float, float]


def measure(step: Callable[[], int], seconds: float) -> Rates:
    """Calls `step` (which returns the env-steps it made) for `seconds`: (per wall second, per CPU second)."""
    step()  # warm up (allocations, jit)
    steps, start, cpu = 0, time.perf_counter(), time.process_time()
    # At least one step, however long the process waits for a CPU before its first (a busy machine).
    while True:
        steps += step()
        if time.perf_counter() - start >= seconds:
            break
    return steps / (time.perf_counter() - start), steps / max(time.process_time() - cpu, 1e-9)


def vector_rates(n: int, seconds: float) -> Rates:
    env = dsq.VectorEnv(n, seed=1)

    def step() -> int:
        env.step(env.sample_actions())
        return n

    return measure(step, seconds)


def vector_rate(n: int, seconds: float) -> float:
    return vector_rates(n, seconds)[0]


def policy_rates(n: int, seconds: float, how: str) -> Rates:
    """A fixed policy output (as a network would give) turned into actions: in Rust, or in numpy."""
    env = dsq.VectorEnv(n, seed=1)
    rng = np.random.default_rng(1)
    logits = rng.standard_normal((n, dsq.ACTION_COUNT)).astype(np.float32)
    probs = np.exp(logits)
    probs /= probs.sum(axis=1, keepdims=True)

    def rust_probs() -> int:
        env.step(env.sample_masked(probs))
        return n

    def rust_logits() -> int:
        env.step_logits(logits)
        return n

    def numpy_masks() -> int:
        # What a training loop does without the Rust samplers: mask, renormalise, inverse-CDF sample.
        masked = probs * env.action_masks
        cdf = np.cumsum(masked, axis=1)
        u = rng.random((n, 1)) * cdf[:, -1:]
        env.step((cdf < u).sum(axis=1))
        return n

    step = {"sample_masked": rust_probs, "step_logits": rust_logits, "numpy": numpy_masks}[how]
    return measure(step, seconds)


def one_game_push_rates(seconds: float) -> Rates:
    """python-chess style: the legal moves as a list, a random one pushed."""
    rng = random.Random(1)
    state = {"pos": dsq.Position(), "plies": 0}

    def step() -> int:
        pos = state["pos"]
        moves = pos.legal_moves
        if not moves or state["plies"] >= 300:
            state["pos"], state["plies"] = dsq.Position(), 0
            return 0
        pos.push(rng.choice(moves))
        state["plies"] += 1
        return 1

    return measure(lambda: sum(step() for _ in range(1000)), seconds)


def one_game_action_rates(seconds: float) -> Rates:
    """The agent's way: the mask's legal actions, a random one played on a Game (draw rules included)."""
    rng = random.Random(1)
    state = {"game": dsq.Game()}

    def step() -> int:
        game = state["game"]
        actions = game.legal_actions()
        if not actions or len(game) >= 300:
            state["game"] = dsq.Game()
            return 0
        game.play_action(rng.choice(actions))
        return 1

    return measure(lambda: sum(step() for _ in range(1000)), seconds)


def one_game_observed_rates(seconds: float) -> Rates:
    """As an agent needing numpy inputs each ply: observation, mask, a random legal action."""
    rng = np.random.default_rng(1)
    state = {"game": dsq.Game()}

    def step() -> int:
        game = state["game"]
        game.observation()
        game.play_action(int(rng.choice(np.flatnonzero(game.action_mask()))))
        if game.is_over() or len(game) >= 1000:
            state["game"] = dsq.Game()
        return 1

    return measure(step, seconds)


def one_game_rate(seconds: float) -> float:
    return one_game_observed_rates(seconds)[0]


def gym_rates(seconds: float) -> Rates:
    from doushouqi.gym import JungleEnv

    rng = np.random.default_rng(1)
    env = JungleEnv(opponent=None)
    state = {"info": env.reset(seed=1)[1]}

    def step() -> int:
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(state["info"]["action_mask"]))))
        state["info"] = env.reset()[1] if terminated or truncated else info
        return 1

    return measure(step, seconds)


def gym_rate(seconds: float) -> float:
    return gym_rates(seconds)[0]


def gym_vector_rates(n: int, seconds: float) -> Rates:
    from doushouqi.gym import JungleVectorEnv

    env = JungleVectorEnv(n, seed=1)
    env.reset(seed=1)

    def step() -> int:
        env.step(env.env.sample_actions())
        return n

    return measure(step, seconds)


def pgx_rates(seconds: float, batch: int = 1024) -> Optional[Rates]:
    """pgx's animal_shogi on the CPU, jitted and vmapped, random legal actions."""
    try:
        import jax
        import jax.numpy as jnp
        import pgx
    except ImportError:
        return None
    env = pgx.make("animal_shogi")
    init, step_fn = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))

    @jax.jit
    def act(state, key):  # type: ignore[no-untyped-def]
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        keys = jax.random.split(key, batch)
        actions = jax.vmap(jax.random.categorical)(keys, logits)
        next_state = step_fn(state, actions)
        # Finished games restart, as the other rows' do.
        fresh = init(jax.random.split(jax.random.fold_in(key, 1), batch))
        done = next_state.terminated | next_state.truncated
        return jax.tree_util.tree_map(
            lambda a, b: jnp.where(done.reshape(done.shape + (1,) * (a.ndim - 1)), b, a), next_state, fresh
        )

    box = {"state": init(jax.random.split(jax.random.PRNGKey(0), batch)), "key": jax.random.PRNGKey(1)}

    def step() -> int:
        box["key"], sub = jax.random.split(box["key"])
        box["state"] = act(box["state"], sub)
        box["state"].legal_action_mask.block_until_ready()
        return batch

    return measure(step, seconds)


def open_spiel_rates(seconds: float) -> Optional[Rates]:
    """OpenSpiel's breakthrough through its Python API: legal actions, a random one applied."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("breakthrough")
    rng = random.Random(1)
    box = {"state": game.new_initial_state()}

    def step() -> int:
        state = box["state"]
        if state.is_terminal():
            box["state"] = game.new_initial_state()
            return 0
        state.apply_action(rng.choice(state.legal_actions()))
        return 1

    return measure(lambda: sum(step() for _ in range(1000)), seconds)


def python_chess_rates(seconds: float) -> Optional[Rates]:
    """python-chess: the legal moves as a list, a random one pushed."""
    try:
        import chess
    except ImportError:
        return None
    rng = random.Random(1)
    box = {"board": chess.Board()}

    def step() -> int:
        board = box["board"]
        moves = list(board.legal_moves)
        if not moves or len(board.move_stack) >= 300:
            box["board"] = chess.Board()
            return 0
        board.push(rng.choice(moves))
        return 1

    return measure(lambda: sum(step() for _ in range(100)), seconds)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="time per row")
    parser.add_argument("--sizes", default="1,64,256,1024,4096", help="the n of the VectorEnv rows")
    parser.add_argument("--no-anchors", action="store_true", help="skip the other libraries' rows")
    args = parser.parse_args()
    print(f"doushouqi {dsq.__version__}, {os.cpu_count()} CPUs, load average at the start: {load()}")
    print()
    print("| stepping | env-steps/s (wall clock) | env-steps per CPU-second | load average after |")
    print("|---|---|---|---|")

    def row(name: str, rates: Optional[Rates]) -> None:
        if rates is None:
            print(f"| {name} | not installed | | {load()} |", flush=True)
        else:
            print(f"| {name} | {rates[0]:,.0f} | {rates[1]:,.0f} | {load()} |", flush=True)

    for n in (int(s) for s in args.sizes.split(",")):
        row(f"`VectorEnv({n})`, `sample_actions()`", vector_rates(n, args.seconds))
    row("`VectorEnv(4096)`, a policy's probabilities, `sample_masked`", policy_rates(4096, args.seconds, "sample_masked"))
    row("`VectorEnv(4096)`, a policy's logits, `step_logits`", policy_rates(4096, args.seconds, "step_logits"))
    row("`VectorEnv(4096)`, the same probabilities sampled in numpy", policy_rates(4096, args.seconds, "numpy"))
    row("`gym.JungleVectorEnv(4096)` (copies its arrays)", gym_vector_rates(4096, args.seconds))
    row("one game, `Position.legal_moves` + `push`", one_game_push_rates(args.seconds))
    row("one game, `Game.legal_actions()` + `play_action`", one_game_action_rates(args.seconds))
    row("one game, `Game.observation()` + `action_mask()` + `play_action`", one_game_observed_rates(args.seconds))
    row("`gym.JungleEnv` (self-play)", gym_rates(args.seconds))
    if not args.no_anchors:
        row("anchor: pgx `animal_shogi`, CPU, batch 1024", pgx_rates(args.seconds))
        row("anchor: OpenSpiel `breakthrough`, Python API", open_spiel_rates(args.seconds))
        row("anchor: python-chess, `legal_moves` + `push`", python_chess_rates(args.seconds))
    print()
    print(f"load average at the end: {load()}")


if __name__ == "__main__":
    main()
