"""Jungle's distributed jobs on Ray: self-play data for the learned evaluation and endgame tablebases.

Each job is a driver (``python3 -m jungle_ray.selfplay``, ``python3 -m jungle_ray.tablebases``) that connects to
a running Ray cluster and runs the project's binaries (``nnue gen``, ``jungle tb``) in Ray tasks, writing into a
directory every node sees. docs/distributed.md tells how to start the cluster and what the jobs cost.
"""
