#!/usr/bin/env python3
"""Reads the output of `cargo test --workspace --no-fail-fast` and prints the tests to run once more.

Only the web platform's end-to-end tests (crates/jungle-server/tests/it: a server, sockets and Chromium, on a
machine running two tests at a time) are run again, and only when they are all that failed: the exit status
is 1, with the reason on stderr, when any other test target failed or the output does not say what failed
(a build error, a crash of the harness). Otherwise the failed tests' names are printed, one per line.
"""

import re
import sys

END_TO_END = "`-p jungle-server --test it`"


def main(path: str) -> int:
    lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    running = None
    failed_tests = []
    failed_targets = []
    in_target_list = False
    for line in lines:
        if m := re.match(r"\s+Running (\S+) \((\S+)\)", line):
            running = m.group(1)
        elif line.lstrip().startswith("Doc-tests "):
            running = line.strip()
        elif m := re.match(r"test (\S+) \.\.\. FAILED$", line):
            if running != "tests/it/main.rs":
                print(f"not an end-to-end test: {m.group(1)} ({running})", file=sys.stderr)
                return 1
            failed_tests.append(m.group(1))
        elif re.match(r"error: \d+ targets? failed:", line):
            in_target_list = True
        elif in_target_list and line.startswith("    `"):
            failed_targets.append(line.strip())
        else:
            in_target_list = False
    if failed_targets != [END_TO_END]:
        print(f"failed targets: {failed_targets or 'not said'}; only the end-to-end tests are run again",
              file=sys.stderr)
        return 1
    if not failed_tests:
        print("the end-to-end tests failed without naming a test", file=sys.stderr)
        return 1
    print("\n".join(failed_tests))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
