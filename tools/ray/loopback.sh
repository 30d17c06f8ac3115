# Ray nodes on this machine for tests and measurements, sourced by two-node-test and throughput: each node is a
# `ray start` on loopback (the head, then nodes joining it), as separate machines would be. Defines
# start_loopback_cluster NODES (sets $address) and stop_ray; the caller traps EXIT to call stop_ray.

# Ray runs its workers at nice 15 by default; on a machine busy with other work (a CI run's builds) that starves
# the tasks, so the nodes started here keep them at the normal priority.
export RAY_USAGE_STATS_ENABLED=0 RAY_worker_niceness=0
# The `ray` command of the Python that has the package (a fresh install's script may not be on PATH yet).
ray_cli=(python3 -m ray.scripts.scripts)

# Stops every Ray process of this machine (what `ray stop` does): do not use beside a Ray cluster of your own.
stop_ray() {
    timeout 60 "${ray_cli[@]}" stop --force >/dev/null 2>&1 || echo "warning: ray stop did not finish" >&2
}

# start_loopback_cluster NODES LOGDIR: a head and NODES-1 more nodes of one CPU each; sets $address.
start_loopback_cluster() {
    local nodes=$1 logs=$2 port node
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    address="127.0.0.1:$port"
    local common=(--node-ip-address=127.0.0.1 --num-cpus=1 --object-store-memory=80000000 --disable-usage-stats)
    timeout 180 "${ray_cli[@]}" start --head --port="$port" --include-dashboard=false "${common[@]}" \
        >"$logs/ray-node-1.log" 2>&1 || return 1
    for node in $(seq 2 "$nodes"); do
        timeout 180 "${ray_cli[@]}" start --address="$address" "${common[@]}" >"$logs/ray-node-$node.log" 2>&1 || return 1
    done
    local check='import sys, ray; ray.init(address=sys.argv[1], logging_level="WARNING"); sys.exit(sum(n["Alive"] for n in ray.nodes()) != int(sys.argv[2]))'
    timeout 60 python3 -c "$check" "$address" "$nodes"
}
