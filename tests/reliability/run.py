#!/usr/bin/env python3
"""Runs one case group of the reliability suite: `run.py GROUP [unittest args]` loads cases_GROUP.py.

ctest runs one test per group (tests/CMakeLists.txt), with NSYS_AI_BINARY set to the built binary. The exit code is
non-zero when any case fails; unittest prints which and why.
"""
import importlib
import os
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main():
    if len(sys.argv) < 2:
        groups = sorted(f[6:-3] for f in os.listdir(os.path.dirname(os.path.abspath(__file__)))
                        if f.startswith("cases_") and f.endswith(".py"))
        print(f"usage: run.py GROUP [-k PATTERN]  (groups: {', '.join(groups)})", file=sys.stderr)
        return 2
    import harness
    if not harness.BINARY:
        print("run.py: set NSYS_AI_BINARY to the nsys-ai binary under test", file=sys.stderr)
        return 2
    group = sys.argv[1]
    module = importlib.import_module(f"cases_{group}")
    print(f"reliability/{group}: binary {harness.BINARY}" + (" (sanitized: longer bounds)" if harness.SANITIZED else ""))
    started = time.monotonic()
    program = unittest.main(module=module, argv=[f"run.py {group}"] + sys.argv[2:], exit=False, verbosity=2,
                            warnings="ignore")  # sockets a dead server left are closed in tearDown
    print(f"reliability/{group}: {time.monotonic() - started:.1f} s")
    return 0 if program.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
