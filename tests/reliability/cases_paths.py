"""Paths and echoes: a file name that is not UTF-8 through every face, the job entries a
job cannot read, the source index's truncation, what an error quotes of a 20 MiB input, and MCP batches.

The convention under test (server/support/include/nsys/support/path_text.h, docs/protocol.md): a path in JSON is the
path itself when its bytes are valid UTF-8, else its file:// URI with every other byte percent-encoded (lossless);
every parameter that takes a path takes that URI back and opens the same file.
"""

import json
import os
import signal
import time
import urllib.parse

from harness import (
    INVALID_REQUEST,
    LATENCY_BOUND_S,
    SHIPPED_PROFILE,
    SLOW,
    ReliabilityCase,
)

CLI_TIMEOUT_S = 120 * SLOW
EXIT_BOUND_S = 2 * SLOW  # the required bound on a clean SIGTERM exit
FF_NAME = os.fsdecode(b"prof\xff.sqlite")  # the byte 0xff: never valid UTF-8
SOURCE_FILE_LIMIT = 200000  # source::IndexLimits::max_files


def file_uri(path):
    """The JSON form of a path that is not UTF-8: file:// and every byte but [A-Za-z0-9-._~/] as %XX."""
    return "file://" + urllib.parse.quote(os.fsencode(os.path.abspath(path)), safe="/-._~")


class Paths(ReliabilityCase):
    # -- helpers --
    def ff_profile(self):
        return self.sandbox.copy(SHIPPED_PROFILE, FF_NAME)

    def ff_job(self):
        """A job directory named with 0xff holding two ranks, one of them named with 0xff too."""
        job = self.sandbox.path("work", os.fsdecode(b"job\xff"))
        os.makedirs(job)
        self.sandbox.copy(SHIPPED_PROFILE, os.path.join(os.fsdecode(b"job\xff"), "r0.sqlite"))
        self.sandbox.copy(SHIPPED_PROFILE, os.path.join(os.fsdecode(b"job\xff"), os.fsdecode(b"r1\xff.sqlite")))
        return job

    def cli_json(self, args):
        code, out, err, _ = self.cli(args, CLI_TIMEOUT_S)
        self.assertEqual(code, 0, f"nsys-ai {' '.join(map(repr, args))} failed: {err[-2000:]}")
        self.assertNotIn("\ufffd", out, "a path lost its bytes (U+FFFD in the output)")
        return json.loads(out)

    def assert_stops_on_sigterm(self, server):
        started = time.monotonic()
        code = server.terminate(signal.SIGTERM, timeout=EXIT_BOUND_S + 5)
        took = time.monotonic() - started
        self.assertEqual(code, 0, f"SIGTERM: {server.describe_exit()}")
        self.assertLess(took, EXIT_BOUND_S + 0.5, f"took {took:.1f} s to exit after SIGTERM")

    def assert_mcp_answers(self, server):
        started = time.monotonic()
        self.assertIn("result", server.client.request("ping", timeout=LATENCY_BOUND_S * 3))
        self.assertLess(time.monotonic() - started, LATENCY_BOUND_S, "MCP ping was slow")
        self.assert_rss(server)

    def assert_job_ranks(self, ranks, job):
        self.assertEqual([r["rank"] for r in ranks], ["r0", "r1\\xFF"])
        self.assertEqual([r["path"] for r in ranks],
                         [file_uri(os.path.join(job, "r0.sqlite")),
                          file_uri(os.path.join(job, os.fsdecode(b"r1\xff.sqlite")))])

    # -- a file name that is not UTF-8 --
    def test_cli_json_carries_a_non_utf8_name_losslessly(self):
        profile, job = self.ff_profile(), self.ff_job()
        uri = file_uri(profile)
        info = self.cli_json(["--no-cache", "info", "--format", "json", profile])
        self.assertEqual(info["path"], uri)
        self.assertEqual(info["info"]["sourcePath"], uri)
        # The URI is taken back: the same file, the same answer.
        again = self.cli_json(["--no-cache", "info", "--format", "json", uri])
        self.assertEqual(again["info"]["fileSize"], os.path.getsize(profile))
        self.assertEqual(again["path"], uri)

        analysis = self.cli_json(["--no-cache", "analyze", "--format", "json", profile])
        self.assertGreater(analysis["rootCausesChecked"], 0)  # the Book's causes (their number grows)
        self.assertIn("whole profile", analysis["summary"])
        analysis = self.cli_json(["--no-cache", "analyze", "--format", "json", job])
        self.assertIn("Job of 2 ranks", analysis["summary"])

        report = self.cli_json(["--no-cache", "job-report", "--format", "json", job])
        self.assert_job_ranks(report["ranks"], job)
        self.assertEqual(report["ranks"][0]["kernels"], report["ranks"][1]["kernels"])  # the same export twice

        table = self.cli_json(["--no-cache", "skill", "run", "job_kernel_imbalance", "--job", job, "--format", "json"])
        rank_col = [c["name"] for c in table["columns"]].index("rank")
        self.assertEqual(sorted(row[rank_col] for row in table["rows"]), ["r0", "r1\\xFF"])

        output = self.sandbox.path("work", os.fsdecode(b"trace\xff.pftrace"))
        trace = self.cli_json(["--no-cache", "job-trace", job, "-o", output, "--format", "json"])
        self.assertEqual(trace["path"], file_uri(output))
        self.assertEqual(trace["bytes"], os.path.getsize(output))
        self.assertEqual([r["rank"] for r in trace["ranks"]], ["r0", "r1\\xFF"])

    def test_serve_stdio_opens_and_returns_a_non_utf8_path_as_its_uri(self):
        profile, job = self.ff_profile(), self.ff_job()
        uri = file_uri(profile)
        server = self.stdio_server()
        client = server.client
        opened = client.result("nsys/openProfile", {"path": uri}, timeout=60 * SLOW)
        self.assertEqual(opened["path"], uri)
        self.assertEqual(opened["info"]["sourcePath"], uri)
        self.assertEqual(opened["info"]["fileSize"], os.path.getsize(profile))
        info = client.result("nsys/profileInfo", {"profileId": opened["profileId"]})
        self.assertEqual(info["path"], uri)
        table = client.result("nsys/runSkill", {"profileId": opened["profileId"], "skill": "top_kernels"},
                              timeout=60 * SLOW)
        self.assertTrue(table["rows"])
        opened_job = client.result("nsys/openJob", {"directory": file_uri(job)}, timeout=60 * SLOW)
        self.assert_job_ranks(opened_job["ranks"], job)
        report = client.result("nsys/jobReport", {"jobId": opened_job["jobId"]}, timeout=90 * SLOW)
        self.assert_job_ranks(report["ranks"], job)
        # A path that does not exist: the error quotes it as valid UTF-8 (\xFF), never with U+FFFD.
        missing = client.request("nsys/openProfile", {"path": file_uri(self.sandbox.path("work", "gone\udcff.sqlite"))})
        self.assertIn("gone\\xFF.sqlite", missing["error"]["message"])
        self.assert_healthy(server)
        self.assert_stops_on_sigterm(server)

    def test_mcp_opens_and_returns_a_non_utf8_path_as_its_uri(self):
        profile, job = self.ff_profile(), self.ff_job()
        uri = file_uri(profile)
        server = self.mcp_server()
        reply = server.call_tool("open_profile", {"path": uri}, timeout=60 * SLOW)
        result = reply["result"]
        self.assertFalse(result["isError"], result)
        summary = json.loads(result["content"][0]["text"])
        self.assertEqual(summary["path"], uri)
        self.assertEqual(summary["info"]["fileSize"], os.path.getsize(profile))
        reply = server.call_tool("open_job", {"directory": file_uri(job)}, timeout=60 * SLOW)
        self.assertFalse(reply["result"]["isError"], reply)
        self.assert_job_ranks(json.loads(reply["result"]["content"][0]["text"])["ranks"], job)
        self.assert_mcp_answers(server)
        self.assert_stops_on_sigterm(server)

    # -- silent drops and echoes --
    def test_job_report_names_every_entry_it_skips(self):
        job = self.sandbox.path("work", "job")
        os.makedirs(job)
        self.sandbox.copy(SHIPPED_PROFILE, os.path.join("job", "rank0.sqlite"))
        os.mkfifo(os.path.join(job, "rank1.sqlite"))
        os.symlink(os.path.join(job, "nowhere.sqlite"), os.path.join(job, "rank2.sqlite"))
        os.makedirs(os.path.join(job, "rank3.sqlite"))
        expected = ["rank1.sqlite was skipped: a FIFO", "rank2.sqlite was skipped: a dangling symbolic link",
                    "rank3.sqlite was skipped: a directory"]
        report = self.cli_json(["--no-cache", "job-report", "--format", "json", job])
        self.assertEqual([r["rank"] for r in report["ranks"]], ["rank0"])
        for note in expected:
            self.assertIn(note, report["notes"])
        code, out, err, _ = self.cli(["--no-cache", "job-report", job], CLI_TIMEOUT_S)
        self.assertEqual(code, 0, err)
        for note in expected:
            self.assertIn("note: " + note, out)
        table = self.cli_json(["--no-cache", "skill", "run", "top_kernels", "--job", job, "--format", "json"])
        for note in expected:
            self.assertIn(note, table["notes"])

        server = self.stdio_server()
        opened = server.client.result("nsys/openJob", {"directory": job}, timeout=60 * SLOW)
        report = server.client.result("nsys/jobReport", {"jobId": opened["jobId"]}, timeout=90 * SLOW)
        for note in expected:
            self.assertIn(note, report["notes"])
        self.assert_healthy(server)
        self.assert_stops_on_sigterm(server)

    def test_suggest_and_annotation_plan_say_the_source_index_was_cut_short(self):
        sources = self.sandbox.path("work", "src")
        os.makedirs(sources)
        for i in range(SOURCE_FILE_LIMIT + 1):  # one file past the limit: empty .py files cost no scanning
            os.close(os.open(os.path.join(sources, f"f{i}.py"), os.O_CREAT | os.O_WRONLY, 0o644))
        profile = self.sandbox.copy(SHIPPED_PROFILE)
        plan = self.cli_json(["--no-cache", "suggest", profile, "--source", sources, "--format", "json"])
        self.assertIn(f"has more than {SOURCE_FILE_LIMIT} source files", plan["notes"][0])
        self.assertIn(sources, plan["notes"][0])
        code, out, err, _ = self.cli(["--no-cache", "suggest", profile, "--source", sources], CLI_TIMEOUT_S)
        self.assertEqual(code, 0, err)
        self.assertIn(f"has more than {SOURCE_FILE_LIMIT} source files", out)

        server = self.stdio_server()
        opened = server.client.result("nsys/openProfile", {"path": profile}, timeout=60 * SLOW)
        result = server.client.result("nsys/annotationPlan", {"profileId": opened["profileId"], "sourceRoots": [sources]},
                                      timeout=90 * SLOW)
        self.assertIn(f"has more than {SOURCE_FILE_LIMIT} source files", result["notes"][0])
        self.assert_healthy(server)
        self.assert_stops_on_sigterm(server)

    def test_mcp_error_quotes_a_bounded_part_of_a_20_mib_path(self):
        server = self.mcp_server()
        huge = "/nonexistent/" + "x" * (20 << 20)
        started = time.monotonic()
        reply = server.call_tool("open_profile", {"path": huge}, timeout=60 * SLOW)
        text = reply["result"]["content"][0]["text"]
        self.assertTrue(reply["result"]["isError"])
        self.assertLess(len(text.encode()), 1024, f"the error echoes {len(text)} characters: {text[:300]}...")
        self.assertIn(f"\u2026 ({len(huge)} bytes)", text)
        self.assertLess(time.monotonic() - started, 30 * SLOW)
        # An argument of the wrong type: the reader's error names the type, never the 20 MiB value.
        reply = server.call_tool("open_profile", {"path": "/x", "no_cache": "y" * (20 << 20)}, timeout=60 * SLOW)
        self.assertLess(len(reply["result"]["content"][0]["text"]), 1024)
        self.assert_mcp_answers(server)
        self.assert_stops_on_sigterm(server)

    def test_mcp_batches_follow_the_negotiated_protocol(self):
        batch = [{"jsonrpc": "2.0", "id": 1, "method": "ping"}, {"jsonrpc": "2.0", "id": 2, "method": "ping"}]
        server = self.mcp_server()  # 2025-06-18: batches were removed from MCP
        server.client.send(batch)
        reply = server.client.wait_any([None], LATENCY_BOUND_S * 3)
        self.assertEqual(reply["error"]["code"], INVALID_REQUEST)
        self.assertIn("2025-03-26", reply["error"]["message"])
        self.assert_mcp_answers(server)
        self.assert_stops_on_sigterm(server)

        old = self.mcp_server(initialize=False)  # 2025-03-26, the one revision with batches: each request answered
        reply = old.client.request("initialize", {"protocolVersion": "2025-03-26", "capabilities": {},
                                                  "clientInfo": {"name": "reliability-suite"}}, timeout=30 * SLOW)
        self.assertEqual(reply["result"]["protocolVersion"], "2025-03-26")
        old.client.notify("notifications/initialized")
        old.client.send(batch)
        deadline = time.monotonic() + LATENCY_BOUND_S * 3
        while not any(isinstance(n, list) for n in old.client.notifications) and time.monotonic() < deadline:
            old.client.pump(0.1)
        answers = [n for n in old.client.notifications if isinstance(n, list)]
        self.assertEqual(len(answers), 1, f"no batch reply: {old.client.notifications}")
        self.assertEqual(sorted(r["id"] for r in answers[0]), [1, 2])
        self.assert_mcp_answers(old)
        self.assert_stops_on_sigterm(old)

    def test_paged_says_whether_the_tables_left_memory(self):
        profile = self.sandbox.copy(SHIPPED_PROFILE)
        args = ["--no-cache", "--memory-budget", "1M", "info", "--check", "--format", "json", profile]
        self.assertTrue(self.cli_json(args)["info"]["paged"])  # 1.1 MB of columns over half of 1 MiB: spilled
        cache = self.sandbox.path("cache", "nsys-ai")
        os.makedirs(cache, mode=0o700, exist_ok=True)
        spill = os.path.join(cache, "spill")
        if os.path.isdir(spill):
            os.rmdir(spill)  # empty: spill files are unlinked at creation
        with open(spill, "w") as f:
            f.write("not a directory")
        code, out, err, _ = self.cli(args, CLI_TIMEOUT_S)
        self.assertEqual(code, 0, err)
        self.assertFalse(json.loads(out)["info"]["paged"], "paged, but no spill file can be made")
        self.assertIn("held in memory", err)
