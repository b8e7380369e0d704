"""Hostile export targets through nsys/exportTrace and `nsys-ai export -o`: the profile itself, a symlink to it, a
device node like /dev/null, a FIFO, an existing file that is not a trace. Each is refused and left byte-for-byte
(and type-for-type) as it was; writing a new trace, and rewriting one we wrote, still works. exportTrace without
`output` keeps the cache bounded and cleans it at shutdown. A report's conversion gets a path, never an option, and
no descriptor of the server."""

import glob
import os
import shutil
import stat

from harness import (
    INVALID_PARAMS,
    OPT_FORCE,
    SHIPPED_PROFILE,
    SLOW,
    ReliabilityCase,
    sha256_of,
)

TRACE_CACHE_MAX_FILES = 8  # the export helper's TraceCacheLimits::max_files


def describe(path):
    """(file type, sha256 or device numbers) of what is at `path`, without following a final symlink."""
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        return ("symlink", os.readlink(path))
    if stat.S_ISREG(st.st_mode):
        return ("file", sha256_of(path))
    if stat.S_ISFIFO(st.st_mode):
        return ("fifo", None)
    if stat.S_ISCHR(st.st_mode):
        return ("chardev", st.st_rdev)
    return ("other", st.st_mode)


class ExportTargets(ReliabilityCase):
    def device_node(self, folder):
        """A character device like /dev/null. As root the unfixed server would replace the real /dev/null, so root
        gets a private node with the same numbers in the sandbox; other users get /dev/null itself, which they
        cannot replace."""
        if os.geteuid() != 0:
            return "/dev/null"
        node = os.path.join(folder, "null-device")
        try:
            os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        except OSError as e:
            self.skipTest(f"cannot make a private device node as root ({e}); /dev/null itself is not risked")
        return node

    def hostile_targets(self):
        """(what, profile, target) with a fresh folder and profile copy for each, so one overwrite spoils no other."""
        makers = {
            "the profile": lambda d, p: p,
            "a symlink to the profile": lambda d, p: (os.symlink(p, os.path.join(d, "link.pftrace")),
                                                      os.path.join(d, "link.pftrace"))[1],
            "a hard link to the profile": lambda d, p: (os.link(p, os.path.join(d, "hard.sqlite")),
                                                        os.path.join(d, "hard.sqlite"))[1],
            "a character device": lambda d, p: self.device_node(d),
            "a FIFO": lambda d, p: (os.mkfifo(os.path.join(d, "fifo.pftrace")), os.path.join(d, "fifo.pftrace"))[1],
            "an existing non-trace file": lambda d, p: self.notes_file(d),
        }
        for n, (what, make) in enumerate(makers.items()):
            folder = self.sandbox.path("work", f"t{n}")
            os.makedirs(folder)
            profile = os.path.join(folder, "profile.sqlite")
            shutil.copyfile(SHIPPED_PROFILE, profile)
            yield what, profile, make(folder, profile)

    def notes_file(self, folder):
        path = os.path.join(folder, "notes.txt")
        with open(path, "w") as f:
            f.write("my notes, not a trace\n" * 100)
        return path

    def test_report_conversion_keeps_no_descriptor_and_takes_no_option(self):
        """Issue 38, items 14 and 15: a report named "-h.nsys-rep" reached `nsys export` as its --help option, and the
        nsys child inherited the listening socket and every client's connection. Over TCP, with a stand-in nsys
        (--nsys) that records its arguments and the descriptors it holds, then writes a copy of the shipped export."""
        work = self.sandbox.path("work")
        record = os.path.join(work, "converter")
        os.makedirs(record)
        stand_in = os.path.join(record, "nsys")
        with open(stand_in, "w") as f:
            f.write("#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done > %s/argv.txt\nls -l /proc/$$/fd > %s/fds.txt\n"
                    "out=; prev=; for a in \"$@\"; do [ \"$prev\" = --output ] && out=\"$a\"; prev=\"$a\"; done\n"
                    "cp '%s' \"$out\"\n" % (record, record, SHIPPED_PROFILE))
        os.chmod(stand_in, 0o755)
        with open(os.path.join(work, "-h.nsys-rep"), "w") as f:
            f.write("NVIDIA Tegra Profiler Report 1.\na pretend report")
        for name in ("argv.txt", "fds.txt"):
            self.expect_output(os.path.join(record, name))
        server = self.tcp_server(["--nsys", stand_in])
        client = server.connect_initialized()
        bystander = server.connect_initialized()
        reply = client.request("nsys/openProfile", {"path": "-h.nsys-rep"}, timeout=120 * SLOW)
        self.assertIn("result", reply, reply)
        with open(os.path.join(record, "argv.txt")) as f:
            argv = f.read().split("\n")
        self.assertEqual(argv[0], "export", argv)
        self.assertIn("./-h.nsys-rep", argv, "the report reached nsys as an option")
        with open(os.path.join(record, "fds.txt")) as f:
            fds = f.read()
        self.assertNotIn("socket:", fds, f"the converter kept a socket of the server:\n{fds}")
        self.assert_healthy(server, bystander)

    def test_export_trace_refuses_hostile_targets(self):
        server = self.stdio_server()
        for what, profile, target in self.hostile_targets():
            with self.subTest(target=what):
                pid = server.client.result("nsys/openProfile", {"path": profile}, timeout=60 * SLOW)["profileId"]
                before, profile_sum = describe(target), sha256_of(profile)
                reply = server.client.request("nsys/exportTrace", {"profileId": pid, "output": target},
                                              timeout=60 * SLOW)
                self.assertEqual(describe(target), before, f"exportTrace onto {what} changed it")
                self.assertEqual(sha256_of(profile), profile_sum, f"exportTrace onto {what} changed the profile")
                self.assert_error(reply, INVALID_PARAMS)
        # A new file, and then rewriting our own trace, still work.
        out = self.sandbox.path("work", "out.pftrace")
        for attempt in range(2):
            result = server.client.result("nsys/exportTrace", {"profileId": pid, "output": out}, timeout=60 * SLOW)
            self.assertEqual(result["sha256"], sha256_of(out), f"attempt {attempt}")
        self.assert_healthy(server)

    def test_cli_export_refuses_hostile_targets(self):
        for what, profile, target in self.hostile_targets():
            with self.subTest(target=what):
                before, profile_sum = describe(target), sha256_of(profile)
                code, out, err, took = self.cli(["export", profile, "-o", target], timeout=60 * SLOW)
                self.assertEqual(describe(target), before, f"nsys-ai export -o {what} changed it")
                self.assertEqual(sha256_of(profile), profile_sum, f"nsys-ai export -o {what} changed the profile")
                self.assertEqual(code, 2, f"nsys-ai export -o {what}: exit {code}, stderr {err[-400:]}")
                if what == "an existing non-trace file":
                    code, out, err, took = self.cli(["export", profile, "-o", target, OPT_FORCE], timeout=60 * SLOW)
                    self.assertEqual(code, 0, f"{OPT_FORCE} onto a non-trace file: exit {code}, stderr {err[-400:]}")
                if what == "the profile":
                    # --force overrides only "exists and is not a trace": never the profile.
                    code, out, err, took = self.cli(["export", profile, "-o", target, OPT_FORCE], timeout=60 * SLOW)
                    self.assertEqual(sha256_of(profile), profile_sum, f"{OPT_FORCE} let export overwrite the profile")
                    self.assertNotEqual(code, 0)

    def test_export_trace_cache_bounded_and_cleaned(self):
        # exportTrace without output used to leave a full trace in the cache on every call.
        profile = self.sandbox.copy(SHIPPED_PROFILE, "profile.sqlite")
        server = self.stdio_server()
        pid = server.client.result("nsys/openProfile", {"path": profile}, timeout=60 * SLOW)["profileId"]
        calls = TRACE_CACHE_MAX_FILES + 4
        for _ in range(calls):
            result = server.client.result("nsys/exportTrace", {"profileId": pid, "minDurationNs": 1000000},
                                          timeout=60 * SLOW)
            self.assertTrue(os.path.exists(result["path"]))
        traces = glob.glob(self.sandbox.path("cache", "**", "*.pftrace"), recursive=True)
        self.assertLessEqual(len(traces), TRACE_CACHE_MAX_FILES, f"{calls} exports left {len(traces)} traces")
        self.assert_healthy(server)
        code = server.terminate()
        self.assertEqual(code, 0, f"serve --stdio after SIGTERM: {server.describe_exit()}")
        traces = glob.glob(self.sandbox.path("cache", "**", "*.pftrace"), recursive=True)
        self.assertEqual(traces, [], "traces left in the cache after a clean shutdown")

    def test_open_in_perfetto_traces_bounded(self):
        # Found by this suite: each nsys/openInPerfetto writes a full trace into the cache that only
        # its 1 h token expiry removes, so a client may fill the disk within the hour (12 calls: 12 traces). The
        # same bound as exportTrace's cache should hold, and a clean shutdown removes them.
        profile = self.sandbox.copy(SHIPPED_PROFILE, "profile.sqlite")
        server = self.stdio_server()
        pid = server.client.result("nsys/openProfile", {"path": profile}, timeout=60 * SLOW)["profileId"]
        calls = TRACE_CACHE_MAX_FILES + 4
        for _ in range(calls):
            server.client.result("nsys/openInPerfetto", {"profileId": pid}, timeout=60 * SLOW)
        traces = glob.glob(self.sandbox.path("cache", "**", "*.pftrace"), recursive=True)
        self.assertLessEqual(len(traces), TRACE_CACHE_MAX_FILES, f"{calls} openInPerfetto calls left {len(traces)} traces")
        self.assert_healthy(server)
        self.assertEqual(server.terminate(), 0, f"serve --stdio after SIGTERM: {server.describe_exit()}")
        traces = glob.glob(self.sandbox.path("cache", "**", "*.pftrace"), recursive=True)
        self.assertEqual(traces, [], "traces left in the cache after a clean shutdown")
