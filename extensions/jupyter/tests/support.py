"""What the jupyter tests share: the real server binary, the fixtures, a slow user skill for the interrupt tests."""

import hashlib
import json
import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE)
ROOT = os.path.dirname(os.path.dirname(PACKAGE))
BINARY = os.environ.get("NSYS_AI_BIN") or os.environ.get("NSYS_AI_BINARY") or os.path.join(ROOT, "build", "nsys-ai")
FIXTURES = os.environ.get("NSYS_AI_FIXTURES_DIR") or os.path.join(os.path.dirname(ROOT), "shared", "fixtures")
H100 = os.path.join(FIXTURES, "h100_2gpu_1s.sqlite")
BEFORE = os.path.join(FIXTURES, "mfu_2gpu_before.sqlite")
AFTER = os.path.join(FIXTURES, "mfu_2gpu_after.sqlite")
SPLIT_RANKS = os.environ.get("NSYS_AI_SPLIT_RANKS") or os.path.join(os.path.dirname(FIXTURES), "tools", "split_ranks.py")

# A user skill that counts to 300 million in SQL (tens of seconds): a request that is still running when the test
# interrupts it. Served with --skill-timeout 120 so that its budget never ends it first.
SLOW_SKILL = {
    "name": "slow_count",
    "description": "Counts to 300 million in SQL: a request that runs for seconds, for the interrupt tests.",
    "sql": ["WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 300000000) "
            "SELECT count(*) AS n FROM c"],
    "requires_tables": [],
}


def skip_reason():
    if not os.access(BINARY, os.X_OK):
        return "no nsys-ai binary at %s (build it, or set NSYS_AI_BIN)" % BINARY
    if not os.path.isfile(H100):
        return "no fixtures at %s (set NSYS_AI_FIXTURES_DIR)" % FIXTURES
    return None


def slow_skill_dir():
    folder = tempfile.mkdtemp(prefix="nsys-ai-jupyter-skills-")
    with open(os.path.join(folder, "slow_count.skill.json"), "w", encoding="utf-8") as f:
        json.dump(SLOW_SKILL, f)
    return folder


def cli_json(*args):
    """The CLI's --format json answer: the independent path the DataFrames are checked against."""
    out = subprocess.run([BINARY] + list(args) + ["--format", "json"], check=True, capture_output=True, timeout=120)
    return json.loads(out.stdout)


def export_sha256(profile, start=None, end=None):
    """sha256 of `nsys-ai export`'s trace of the profile (and window)."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "t.pftrace")
        args = [BINARY, "export", profile, "-o", out]
        if start is not None:
            args += ["--start", str(start)]
        if end is not None:
            args += ["--end", str(end)]
        subprocess.run(args, check=True, capture_output=True, timeout=120)
        with open(out, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()


def process_gone(pid, timeout=5.0):
    """Whether pid has exited (or is a zombie) within timeout seconds."""
    import time
    deadline = time.monotonic() + timeout
    while True:
        try:
            with open("/proc/%d/stat" % pid) as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
            if state in ("Z", "X"):
                return True
        except FileNotFoundError:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
