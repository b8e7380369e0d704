"""Untrusted patterns never reach a backtracking matcher: a 100 KB question (nsys/ask over stdio
and TCP, MCP ask, the CLI), a 100 KB perfettoOrigin, the phases skill's re:(a|b)*c on a 200 KB NVTX name and
re:(.*)*Z (CLI, server, nsys/diff's phase table), and a repository whose .gitignore has a line of 14 stars. Each case
also checks that the server answers a cheap request within the bound and stops within 2 s of SIGTERM; tearDown checks
the files it left."""

import json
import os
import signal
import time

from harness import (
    INVALID_PARAMS,
    LATENCY_BOUND_S,
    SHIPPED_PROFILE,
    SLOW,
    ReliabilityCase,
    edit_sqlite,
    initialize_params,
)

MAX_QUESTION_BYTES = 8 * 1024  # agent::kMaxQuestionBytes
MAX_ORIGIN_BYTES = 2048  # protocol::kMaxWebOriginBytes
EXIT_BOUND_S = 2.0 * SLOW  # SIGTERM ends the process within 2 s
ANSWER_BOUND_S = 20.0 * SLOW  # a pattern case answers within this (the old matchers crashed or never answered)
OPEN_TIMEOUT_S = 60 * SLOW
CLI_TIMEOUT_S = 60 * SLOW
STAR_LINE = "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b"  # each star multiplied the recursive matcher's time by about 5

# "is x...x more than": std::regex recursed once per character of the `.*` and overflowed the stack at ~50 KB.
HUGE_QUESTION = "is gpu 1 " + "x" * 100_000 + " more than gpu 0?"
# The largest question taken, through every pattern of the parser.
LIMIT_QUESTION = ("is kernel time on gpu 0 " + "x_y 'q' between 1 and " * 400)[: MAX_QUESTION_BYTES - 20] + \
    " more than?"


class Patterns(ReliabilityCase):
    # -- the end of every case --
    def assert_stops_on_sigterm(self, server):
        started = time.monotonic()
        code = server.terminate(signal.SIGTERM, timeout=EXIT_BOUND_S + 5)
        took = time.monotonic() - started
        self.assertEqual(code, 0, f"SIGTERM: {server.describe_exit()}")
        self.assertLess(took, EXIT_BOUND_S, f"took {took:.1f} s to exit after SIGTERM")

    def assert_mcp_healthy(self, server):
        self.assert_alive(server)
        started = time.monotonic()
        self.assertIn("result", server.client.request("ping", timeout=LATENCY_BOUND_S * 3))
        self.assertLess(time.monotonic() - started, LATENCY_BOUND_S, "MCP ping was slow")
        self.assert_rss(server)

    # -- profiles --
    def profile(self, name=None):
        path = self.sandbox.copy(SHIPPED_PROFILE, name)
        self.fixtures.add(path)
        return path

    def long_name_profile(self):
        """A copy whose first NVTX range is named 200,000 'a's and a 'c' (the export names ranges inline, in
        NVTX_EVENTS.text)."""
        path = self.sandbox.copy(SHIPPED_PROFILE, "long_nvtx_name.sqlite")
        edit_sqlite(path, "update NVTX_EVENTS set text = '" + "a" * 200_000 + "c' where rowid = "
                    "(select min(rowid) from NVTX_EVENTS where eventType = 59)")
        self.fixtures.add(path)
        return path

    def open(self, client, path):
        return client.result("nsys/openProfile", {"path": path}, timeout=OPEN_TIMEOUT_S)["profileId"]

    def rows_by_phase(self, result):
        columns = [c["name"] for c in result["columns"]]
        return {row[columns.index("phase")]: dict(zip(columns, row)) for row in result["rows"]}

    def run_phases(self, client, profile_id, phase_map):
        started = time.monotonic()
        reply = client.request("nsys/runSkill", {"profileId": profile_id, "skill": "phases",
                                                 "args": {"phase_map": json.dumps(phase_map)}},
                               timeout=ANSWER_BOUND_S)
        took = time.monotonic() - started
        self.assertIn("result", reply, f"phases: {json.dumps(reply)[:500]}")
        self.assertLess(took, ANSWER_BOUND_S)
        return self.rows_by_phase(reply["result"])

    def assert_same_phase(self, rows, a, b):
        for column in ("ranges", "wall_ns", "gpu_ns", "kernels"):
            self.assertEqual(rows[a][column], rows[b][column], f"{a} vs {b}: {column}")

    # -- long questions --
    def assert_question_refused(self, reply):
        self.assert_error(reply, INVALID_PARAMS, [f"over the limit of {MAX_QUESTION_BYTES} bytes"])

    def test_a_100_kb_question_over_stdio(self):
        server = self.stdio_server()
        pid = self.open(server.client, self.profile())
        reply = server.client.request("nsys/ask", {"profileId": pid, "question": HUGE_QUESTION}, timeout=ANSWER_BOUND_S)
        self.assert_question_refused(reply)
        reply = server.client.request("nsys/ask", {"profileId": pid, "question": LIMIT_QUESTION},
                                      timeout=ANSWER_BOUND_S)
        self.assertIn("result", reply, json.dumps(reply)[:500])
        self.assert_healthy(server)
        self.assert_stops_on_sigterm(server)

    def test_a_100_kb_question_over_mcp(self):
        server = self.mcp_server()
        opened = server.call_tool("open_profile", {"path": self.profile()}, timeout=OPEN_TIMEOUT_S)
        text = json.loads(opened["result"]["content"][0]["text"])
        pid = text.get("profile_id") or text.get("profileId")
        reply = server.call_tool("ask", {"profile_id": pid, "question": HUGE_QUESTION}, timeout=ANSWER_BOUND_S)
        if "error" in reply:
            self.assert_question_refused(reply)
        else:  # a tool's failure as its result
            self.assertTrue(reply["result"].get("isError"), json.dumps(reply)[:500])
            self.assertIn(f"over the limit of {MAX_QUESTION_BYTES} bytes", reply["result"]["content"][0]["text"])
        reply = server.call_tool("ask", {"profile_id": pid, "question": LIMIT_QUESTION}, timeout=ANSWER_BOUND_S)
        self.assertIn("result", reply)
        self.assertFalse(reply["result"].get("isError"), json.dumps(reply)[:500])
        self.assert_mcp_healthy(server)
        self.assert_stops_on_sigterm(server)

    def test_a_100_kb_question_over_tcp_leaves_other_sessions_working(self):
        server = self.tcp_server()
        attacker, bystander = server.connect_initialized(), server.connect_initialized()
        profile = self.profile()
        theirs, mine = self.open(attacker, profile), self.open(bystander, profile)
        for _ in range(3):
            self.assert_question_refused(attacker.request("nsys/ask", {"profileId": theirs, "question": HUGE_QUESTION},
                                                          timeout=ANSWER_BOUND_S))
        answer = bystander.result("nsys/ask", {"profileId": mine, "question": "Which kernel takes the most GPU time?"},
                                  timeout=ANSWER_BOUND_S)
        self.assertIn("sm80_xmma_gemm", json.dumps(answer))
        self.assert_healthy(server, bystander)
        self.assert_healthy(server)
        self.assert_stops_on_sigterm(server)

    def test_a_100_kb_question_on_the_cli_is_a_usage_error(self):
        code, out, err, took = self.cli(["--no-cache", "ask", self.profile(), HUGE_QUESTION], CLI_TIMEOUT_S)
        self.assertEqual(code, 2, f"exit {code}: {err[-1000:]}")
        self.assertIn(f"over the limit of {MAX_QUESTION_BYTES} bytes", err)
        self.assertLess(len(err), 4096, "the question was echoed")
        code, out, err, took = self.cli(["--no-cache", "ask", self.profile("limit.sqlite"), LIMIT_QUESTION],
                                        CLI_TIMEOUT_S)
        self.assertEqual(code, 0, err[-1000:])

    # -- a long perfettoOrigin --
    def test_a_100_kb_perfetto_origin(self):
        server = self.stdio_server(initialize=False)
        params = initialize_params(options={"perfettoOrigin": "https://" + "a" * 100_000})
        reply = server.client.request("initialize", params, timeout=ANSWER_BOUND_S)
        self.assert_error(reply, INVALID_PARAMS, ["perfettoOrigin", f"over the limit of {MAX_ORIGIN_BYTES} bytes"])
        self.assertLess(len(reply["error"]["message"]), 1000, "the origin was echoed")
        server.initialize({"perfettoOrigin": "http://127.0.0.1:10000"})
        self.assert_healthy(server)
        tcp = self.tcp_server()
        client = tcp.connect()
        origin = "http://[" + ":" * 100_000
        reply = client.request("initialize", initialize_params(tcp.token(), {"perfettoOrigin": origin}),
                               timeout=ANSWER_BOUND_S)
        self.assert_error(reply, INVALID_PARAMS, [f"over the limit of {MAX_ORIGIN_BYTES} bytes"])
        self.assert_healthy(tcp)
        self.assert_stops_on_sigterm(tcp)
        self.assert_stops_on_sigterm(server)

    # -- phase regexes --
    def test_phases_regex_on_a_200_kb_nvtx_name_through_the_cli(self):
        profile = self.long_name_profile()
        phase_map = json.dumps({"ab_c": ["re:(a|b)*c"], "c": ["c"], "long": ["re:a{250}"], "plain": ["a" * 250]})
        code, out, err, took = self.cli(["--no-cache", "skill", "run", "phases", profile, "--arg",
                                         f"phase_map={phase_map}", "--format", "json"], CLI_TIMEOUT_S)
        self.assertEqual(code, 0, f"exit {code} (139 was the crash): {err[-1000:]}")
        self.assertLess(took, ANSWER_BOUND_S)
        rows = self.rows_by_phase(json.loads(out))
        self.assert_same_phase(rows, "ab_c", "c")
        self.assert_same_phase(rows, "long", "plain")
        self.assertEqual(rows["long"]["ranges"], 1)

    def test_phases_regex_on_a_200_kb_nvtx_name_through_the_server(self):
        server = self.stdio_server()
        pid = self.open(server.client, self.long_name_profile())
        rows = self.run_phases(server.client, pid, {"ab_c": ["re:(a|b)*c"], "c": ["c"], "long": ["re:^a{1000}"],
                                                    "plain": ["a" * 250]})
        self.assert_same_phase(rows, "ab_c", "c")
        self.assert_same_phase(rows, "long", "plain")
        self.assertEqual(rows["long"]["ranges"], 1)
        self.assert_healthy(server)
        self.assert_stops_on_sigterm(server)

    def test_catastrophic_phase_regex_answers_and_what_re2_cannot_do_is_refused(self):
        server = self.stdio_server()
        pid = self.open(server.client, self.profile())
        rows = self.run_phases(server.client, pid, {"any_Z": ["re:(.*)*Z"], "Z": ["Z"], "mm": ["re:(.*)*mm"],
                                                    "mm_plain": ["mm"]})
        self.assert_same_phase(rows, "any_Z", "Z")
        self.assert_same_phase(rows, "mm", "mm_plain")
        self.assertGreater(rows["mm"]["ranges"], 0)
        reply = server.client.request("nsys/runSkill", {"profileId": pid, "skill": "phases",
                                                        "args": {"phase_map": json.dumps({"b": ["re:(a)\\1"]})}},
                                      timeout=ANSWER_BOUND_S)
        self.assert_error(reply, INVALID_PARAMS, ['bad regex "(a)\\1"', "no backreferences"])
        # nsys/diff's phase table runs the same skill.
        other = self.open(server.client, self.profile("other.sqlite"))
        started = time.monotonic()
        diff = server.client.request("nsys/diff", {"baseProfileId": pid, "newProfileId": other,
                                                   "phaseMap": json.dumps({"z": ["re:(.*)*Z"], "a": ["re:(a|b)*c"]})},
                                     timeout=ANSWER_BOUND_S)
        self.assertIn("result", diff, json.dumps(diff)[:500])
        self.assertLess(time.monotonic() - started, ANSWER_BOUND_S)
        self.assert_healthy(server)
        self.assert_stops_on_sigterm(server)

    # -- a repository's .gitignore --
    def hostile_repository(self, name):
        root = self.sandbox.path("work", name)
        os.makedirs(os.path.join(root, "src"))
        with open(os.path.join(root, ".gitignore"), "w") as f:
            f.write(STAR_LINE + "\n*a*a*a*a*a*a*a*a*a*a*a*a*a*a*x.py\n")
        body = 'import nvtx\nwith nvtx.annotate("step"):\n    pass\n'
        for i in range(20):  # names of 200 'a's: C(200, 14) ways to place the stars, tried one by one
            with open(os.path.join(root, "src", "a" * 200 + f"{i}.py"), "w") as f:
                f.write(body)
        with open(os.path.join(root, "src", "a" * 14 + "x.py"), "w") as f:  # ignored by the second line
            f.write(body)
        return root

    def wait_indexed(self, server, count):
        deadline = time.monotonic() + ANSWER_BOUND_S
        while server.stderr_text().count("indexed ") < count:
            self.assert_alive(server)
            self.assertLess(time.monotonic(), deadline,
                            "the source index did not finish: " + server.stderr_text()[-500:])
            time.sleep(0.05)
        return server.stderr_text()

    def test_a_gitignore_line_of_14_stars_indexes_within_a_bound(self):
        root = self.hostile_repository("repo")
        server = self.stdio_server(["--log-level", "info"], initialize=False)
        params = initialize_params()
        params["workspaceFolders"] = [{"uri": "file://" + root, "name": "repo"}]
        self.assertIn("result", server.client.request("initialize", params, timeout=30 * SLOW))
        server.client.notify("initialized", {})
        log = self.wait_indexed(server, 1)
        self.assertIn("indexed 20 source files", log)  # the 14 a's + x.py file is ignored, the 20 others are not
        self.assert_healthy(server)
        self.assert_stops_on_sigterm(server)

    def test_two_tcp_clients_with_such_a_repository_leave_others_answered(self):
        server = self.tcp_server(["--log-level", "info"])
        for name in ("one", "two"):
            client = server.connect()
            params = initialize_params(server.token())
            params["workspaceFolders"] = [{"uri": "file://" + self.hostile_repository(name), "name": name}]
            self.assertIn("result", client.request("initialize", params, timeout=30 * SLOW))
            client.notify("initialized", {})
        bystander = server.connect_initialized()
        pid = self.open(bystander, self.profile())
        result = bystander.result("nsys/runSkill", {"profileId": pid, "skill": "top_kernels"}, timeout=ANSWER_BOUND_S)
        self.assertTrue(result["rows"])
        self.wait_indexed(server, 2)
        self.assert_healthy(server, bystander)
        self.assert_stops_on_sigterm(server)
