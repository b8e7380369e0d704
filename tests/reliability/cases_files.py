"""Files written where another user can reach them, and documents without a byte bound.

- HOME and XDG_CACHE_HOME unset: the cache falls back to $TMPDIR/nsys-ai-UID. Another user made it first, mode 0777:
  it is refused, naming it, and nothing is read from or written into it.
- A symlink planted at the snapshot's old temporary name (<key>.snap.tmp.<pid>.<n>) and at `baselines.json.<pid>.tmp`
  (over a range of pids, the CLI's own among them) is never followed: the victim keeps its bytes.
- Snapshots, traces (cached and exported) and the cache's directories are 0600/0700.
- 30 didOpen of 15 MiB: the server keeps what its bounds allow, its RSS stays under a bound, the refusal names the
  limit (window/logMessage, and -32803 on a request about a refused document), and a cheap request still answers.

The end-of-case check (harness.check_private_files) then checks every file each case left.
"""

import glob
import os
import stat
import subprocess
import time

from harness import (
    BINARY,
    LATENCY_BOUND_S,
    REQUEST_FAILED,
    SHIPPED_PROFILE,
    SLOW,
    ReliabilityCase,
    rss_mb,
    server_preexec,
)

NOBODY = 65534  # another user (as root the suite can give a directory away)
DOC_BYTES = 15 << 20  # one didOpen's text (the 16 MiB body limit lets a client send this much at once)
DOC_OPENS = 30
SESSION_DOC_LIMIT_TEXT = "64.0 MiB"  # SessionDocuments::kSessionBytes as the refusal names it
# The server's RSS while 30 x 15 MiB arrive: before the bound it reached 540 MB (and 4.6 GB were allowed); 64 MiB
# kept by the session, the source index's copy of them and one message in flight stay far below this.
DOC_RSS_BOUND_MB = 2.5 * 260 if SLOW > 1 else 260


def mode_of(path):
    return stat.S_IMODE(os.lstat(path).st_mode)


class PrivateFiles(ReliabilityCase):
    def without_home(self):
        """The sandbox's environment with HOME and XDG_CACHE_HOME unset (TMPDIR stays the sandbox's)."""
        env = self.sandbox.env()
        env.pop("HOME", None)
        env.pop("XDG_CACHE_HOME", None)
        self.sandbox.env = lambda: dict(env)
        return env

    def hostile_dir(self, path):
        """`path` made by "another user": mode 0777, owned by nobody (as root), with a planted snapshot-looking file."""
        if os.geteuid() != 0:
            self.skipTest("needs root to give a directory to another user")
        os.mkdir(path)
        os.chmod(path, 0o777)
        os.chown(path, NOBODY, NOBODY)
        return path

    def test_tmpdir_fallback_owned_by_another_user_is_refused(self):
        env = self.without_home()
        fallback = os.path.join(env["TMPDIR"], f"nsys-ai-{os.getuid()}")
        self.hostile_dir(fallback)
        profile = self.sandbox.copy(SHIPPED_PROFILE, "p.sqlite")
        # The CLI: the skill answers (cold), and says why the cache was not used.
        code, out, err, _ = self.cli(["skill", "run", "top_kernels", profile], timeout=60 * SLOW)
        self.assertEqual(code, 0, f"skill run failed: {err[-2000:]}")
        self.assertIn(fallback, err)
        self.assertIn(f"uid {NOBODY}", err)
        # The server: the profile opens, a trace for the cache is refused naming the directory, the server serves on.
        server = self.stdio_server()
        pid = server.client.result("nsys/openProfile", {"path": profile}, timeout=60 * SLOW)["profileId"]
        server.client.result("nsys/runSkill", {"profileId": pid, "skill": "top_kernels", "args": {"limit": 1}},
                             timeout=60 * SLOW)
        reply = server.client.request("nsys/exportTrace", {"profileId": pid}, timeout=60 * SLOW)
        self.assertIn("error", reply, f"a trace was written into another user's directory: {reply}")
        self.assertIn(fallback, reply["error"]["message"])
        self.assertIn("mode 0777", reply["error"]["message"])
        server.client.result("nsys/closeProfile", {"profileId": pid}, timeout=30 * SLOW)
        self.assert_healthy(server)
        self.assertEqual(os.listdir(fallback), [], "something was written into another user's directory")
        self.assertEqual(mode_of(fallback), 0o777)  # not ours to change

    def test_snapshot_never_follows_a_link_planted_at_its_temporary_name(self):
        profile = self.sandbox.copy(SHIPPED_PROFILE, "p.sqlite")
        cache = os.path.join(self.sandbox.path("cache"), "nsys-ai")
        # A first run writes the snapshot: its name (the profile's identity key) is what an attacker predicts.
        code, _, err, _ = self.cli(["export", profile, "-o", self.sandbox.path("work", "first.pftrace")], 120 * SLOW)
        self.assertEqual(code, 0, err[-2000:])
        snaps = glob.glob(os.path.join(cache, "*.snap"))
        self.assertEqual(len(snaps), 1, os.listdir(cache))
        os.unlink(snaps[0])
        victim = self.sandbox.path("home", "victim.txt")
        with open(victim, "w") as f:
            f.write("precious\n")
        self.fixtures.add(victim)  # the end-of-case checks: its bytes are unchanged
        server = self.stdio_server()
        os.chmod(cache, 0o777)  # ours but too wide (as an old version or a careless umask left it): narrowed
        for n in range(64):  # the old name, <snap>.tmp.<pid>.<counter>, for this server's pid
            os.symlink(victim, f"{snaps[0]}.tmp.{server.pid}.{n}")
        pid = server.client.result("nsys/openProfile", {"path": profile}, timeout=60 * SLOW)["profileId"]
        server.client.result("nsys/exportTrace", {"profileId": pid, "output": self.sandbox.path("work", "t.pftrace")},
                             timeout=120 * SLOW)  # loads every table: the snapshot is written
        server.client.result("nsys/closeProfile", {"profileId": pid}, timeout=30 * SLOW)
        deadline = time.monotonic() + 20 * SLOW
        while not (os.path.isfile(snaps[0]) and not os.path.islink(snaps[0])) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertTrue(os.path.isfile(snaps[0]) and not os.path.islink(snaps[0]), "no snapshot was written")
        with open(victim) as f:
            self.assertEqual(f.read(), "precious\n")
        self.assertEqual(mode_of(snaps[0]), 0o600)
        self.assertEqual(mode_of(cache), 0o700)
        self.assert_healthy(server)
        for n in range(64):  # the planted links are the case's own: not nsys-ai's to leave or remove
            os.unlink(f"{snaps[0]}.tmp.{server.pid}.{n}")

    def test_baseline_tag_never_follows_a_link_planted_at_its_temporary_name(self):
        profile = self.sandbox.copy(SHIPPED_PROFILE, "p.sqlite")
        store = self.sandbox.path("work", ".nsys-ai")
        os.mkdir(store)
        os.chmod(store, 0o777)
        victim = self.sandbox.path("home", "victim.txt")
        with open(victim, "w") as f:
            f.write("precious\n")
        self.fixtures.add(victim)
        # The pid the CLI will get is near the last one given out: plant the old name for the next 3000.
        with open("/proc/sys/kernel/ns_last_pid") as f:
            last = int(f.read())
        pid_max = int(open("/proc/sys/kernel/pid_max").read())
        planted = [(last + i) % pid_max for i in range(1, 3001)]
        for pid in planted:
            os.symlink(victim, os.path.join(store, f"baselines.json.{pid}.tmp"))
        proc = subprocess.Popen([BINARY, "baseline", "tag", "good", profile],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.sandbox.env(),
                                cwd=self.sandbox.path("work"), preexec_fn=server_preexec())
        out, err = proc.communicate(timeout=60 * SLOW)
        self.assertEqual(proc.returncode, 0, err.decode()[-2000:])
        self.assertIn(proc.pid, planted, "the CLI's pid fell outside the planted range; the case proved nothing")
        with open(victim) as f:
            self.assertEqual(f.read(), "precious\n")
        baselines = os.path.join(store, "baselines.json")
        self.assertFalse(os.path.islink(baselines))
        self.assertEqual(mode_of(baselines), 0o600)
        self.assertEqual(mode_of(store), 0o700)
        for pid in planted:
            os.unlink(os.path.join(store, f"baselines.json.{pid}.tmp"))

    def test_snapshots_traces_and_caches_are_private(self):
        profile = self.sandbox.copy(SHIPPED_PROFILE, "p.sqlite")
        os.umask(0o022)  # what the server inherits: its files must not rely on it
        server = self.stdio_server()
        client = server.client
        pid = client.result("nsys/openProfile", {"path": profile}, timeout=60 * SLOW)["profileId"]
        cached = client.result("nsys/exportTrace", {"profileId": pid}, timeout=120 * SLOW)["path"]
        out = self.sandbox.path("work", "out.pftrace")
        client.result("nsys/exportTrace", {"profileId": pid, "output": out}, timeout=120 * SLOW)
        client.result("nsys/closeProfile", {"profileId": pid}, timeout=30 * SLOW)
        self.assertEqual(mode_of(cached), 0o600, cached)
        self.assertEqual(mode_of(os.path.dirname(cached)), 0o700)
        self.assertEqual(mode_of(out), 0o600, "a new exported trace is private to its user")
        cache = os.path.join(self.sandbox.path("cache"), "nsys-ai")
        self.assertEqual(mode_of(cache), 0o700)
        deadline = time.monotonic() + 20 * SLOW
        while not glob.glob(os.path.join(cache, "*.snap")) and time.monotonic() < deadline:
            time.sleep(0.05)
        snaps = glob.glob(os.path.join(cache, "*.snap"))
        self.assertEqual(len(snaps), 1, os.listdir(cache))
        self.assertEqual(mode_of(snaps[0]), 0o600)
        # An existing trace that is replaced keeps its mode (the user chose it).
        os.chmod(out, 0o644)
        pid = client.result("nsys/openProfile", {"path": profile}, timeout=60 * SLOW)["profileId"]
        client.result("nsys/exportTrace", {"profileId": pid, "output": out}, timeout=120 * SLOW)
        self.assertEqual(mode_of(out), 0o644)
        self.assert_healthy(server)


class DocumentBytes(ReliabilityCase):
    def test_thirty_fifteen_mebibyte_opens_are_bounded(self):
        server = self.stdio_server()
        client = server.client
        before = rss_mb(server.pid)
        text = "x" * DOC_BYTES
        peak = 0.0
        for i in range(DOC_OPENS):
            client.notify("textDocument/didOpen", {"textDocument": {
                "uri": f"file:///nonexistent/big{i}.py", "languageId": "python", "version": 1, "text": text}})
            client.pump(0.01)
            peak = max(peak, rss_mb(server.pid) or 0.0)
        took = self.assert_healthy(server, rss_bound_mb=DOC_RSS_BOUND_MB)  # every didOpen was read before this
        peak = max(peak, rss_mb(server.pid) or 0.0)
        print(f"    RSS {before:.0f} MiB before, peak {peak:.0f} MiB after {DOC_OPENS} x 15 MiB; listSkills {took:.2f} s")
        self.assertLess(peak, DOC_RSS_BOUND_MB, f"the server's RSS reached {peak:.0f} MiB")
        refusals = [m for m in client.notifications
                    if m.get("method") == "window/logMessage" and "is not kept" in m["params"]["message"]]
        self.assertEqual(len(refusals), DOC_OPENS - 4, "64 MiB keep four documents of 15 MiB")
        self.assertEqual(refusals[0]["params"]["type"], 1)  # an error
        self.assertIn(SESSION_DOC_LIMIT_TEXT, refusals[0]["params"]["message"])
        self.assertIn("file:///nonexistent/big4.py", refusals[0]["params"]["message"])
        # A request about a refused document answers the refusal; about a kept one, normally.
        refused = client.request("textDocument/hover", {"textDocument": {"uri": "file:///nonexistent/big4.py"},
                                                        "position": {"line": 0, "character": 0}},
                                 timeout=LATENCY_BOUND_S * 5)
        self.assert_error(refused, REQUEST_FAILED, [SESSION_DOC_LIMIT_TEXT, "limit on a session's open documents"])
        kept = client.request("textDocument/hover", {"textDocument": {"uri": "file:///nonexistent/big0.py"},
                                                     "position": {"line": 0, "character": 0}},
                              timeout=LATENCY_BOUND_S * 5)
        self.assertIn("result", kept, kept)
        # Closing documents makes room again.
        for i in range(4):
            client.notify("textDocument/didClose", {"textDocument": {"uri": f"file:///nonexistent/big{i}.py"}})
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": "file:///nonexistent/big4.py", "languageId": "python", "version": 2, "text": text}})
        again = client.request("textDocument/hover", {"textDocument": {"uri": "file:///nonexistent/big4.py"},
                                                      "position": {"line": 0, "character": 0}},
                               timeout=LATENCY_BOUND_S * 5)
        self.assertIn("result", again, again)
        self.assert_healthy(server, rss_bound_mb=DOC_RSS_BOUND_MB)
