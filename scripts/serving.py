"""What the measuring scripts (scripts/list-cost, scripts/move-cost) share: a free port, `jungle serve` started
on a database and waited for, and stopped."""
import socket
import subprocess
import sys
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(jungle, db, port, limits):
    """`jungle serve` on `db` at 127.0.0.1:`port` with one engine thread and the `--limit`s given, once it
    accepts connections."""
    args = [jungle, "serve", "--db", db, "--addr", f"127.0.0.1:{port}", "--engine-threads", "1"]
    for limit in limits:
        args += ["--limit", limit]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return proc
        except OSError:
            if proc.poll() is not None:
                sys.exit(f"jungle serve exited with {proc.returncode}")
            time.sleep(0.1)
    proc.kill()
    sys.exit("jungle serve did not start listening")


def stop(proc):
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
