"""Time budgets that are promises: one SQL call that SQLite would run for seconds (printf's
'%.*c' with a 2e9 precision: six of them ran 46 s under a 1 s budget; a trim of 1 MB by a 1 MB set) and a built-in
skill made slow (`phases` with a heavy map) end at their budget with the limit error, answer cancellation within 2 s,
and SIGTERM/SIGINT end the process within 2 s while they run: over stdio, TCP, MCP and `skill run`."""

import json
import signal
import time

from harness import (
    INIT_SKILL_TIMEOUT,
    LATENCY_BOUND_S,
    Process,
    OPT_SKILL_TIMEOUT,
    REAP_SLACK_S,
    REQUEST_CANCELLED,
    REQUEST_FAILED,
    SHIPPED_PROFILE,
    SLOW,
    ReliabilityCase,
    ReplyTimeout,
    error_code,
    edit_sqlite,
    probe_latency,
)

BUDGET_S = 1  # the budget the cases set (--skill-timeout / initializationOptions.skillTimeoutSeconds)
SLACK_S = 1.5 * SLOW  # how much later than the budget the error may come
CANCEL_BOUND_S = 2.0 * SLOW  # $/cancelRequest -> -32800
EXIT_BOUND_S = 2.0 + REAP_SLACK_S * SLOW  # SIGTERM/SIGINT -> exit (the 2 s of the contract, plus reaping the process)
LONG_BUDGET_S = 120  # for the cancel and signal cases: the work would go on far longer than any bound below

SIX_PRINTFS = "SELECT " + ", ".join(f"printf('%.*c', 2000000000, 'x') AS c{i}" for i in range(6))
SKILLS = [
    {"name": "six_printfs", "description": "Six 2e9-repeat printf calls.", "sql": SIX_PRINTFS},
    {
        "name": "long_trim",
        "description": "One ltrim call of 1e12 comparisons.",
        "sql": "SELECT length(ltrim(printf('%.*c', 1000000, 'a'), printf('%.*c', 1000000, 'b') || 'a')) AS n",
    },
]

# 64 phases x 64 RE2 patterns (the map's caps) that never match, on a copy of the shipped profile whose NVTX names
# are 4,000 bytes longer (a profile is untrusted): each distinct name is searched by 4,096 regexes whose DFA does not
# fit their memory share, so RE2 runs its NFA. Linear, and about 15 s: what the budget and cancellation must stop.
LONG_NAME_BYTES = 4000
HEAVY_MAP = json.dumps({f"p{i}": [f"re:.*[a-z].{{40}}QQ{i:02d}{j:02d}" for j in range(64)] for i in range(64)})
LIMIT_MESSAGE = r"16 MiB"
BUDGET_MESSAGE = r"(?i)stopped after .*time budget"


class Budgets(ReliabilityCase):
    def setUp(self):
        super().setUp()
        for skill in SKILLS:
            self.sandbox.write_skill(skill)
        self.skill_dir = self.sandbox.path("skills")
        self.profile = self.sandbox.copy(SHIPPED_PROFILE)
        self.fixtures.add(self.profile)

    # -- helpers --
    def open(self, client):
        return client.result("nsys/openProfile", {"path": self.profile}, timeout=60 * SLOW)["profileId"]

    def mcp_open(self, server):
        opened = server.call_tool("open_profile", {"path": self.profile}, timeout=60 * SLOW)
        self.assertFalse(opened["result"].get("isError"), str(opened)[:300])
        text = json.loads(opened["result"]["content"][0]["text"])
        return text.get("profile_id") or text.get("profileId")

    def run_call(self, skill, pid):
        if skill == "phases":
            return {"profileId": pid, "skill": "phases", "args": {"phase_map": HEAVY_MAP}}
        return {"profileId": pid, "skill": skill}

    def assert_failed_within(self, reply, took, bound, pattern, code=REQUEST_FAILED):
        self.assertIn("error", reply, f"answered a result: {str(reply)[:300]}")
        self.assertEqual(error_code(reply), code, f"reply: {str(reply)[:500]}")
        self.assertRegex(reply["error"]["message"], pattern)
        self.assertLess(took, bound, f"the error came after {took:.1f} s")

    def assert_exits_within(self, server, bound=EXIT_BOUND_S, sig=signal.SIGTERM):
        started = time.monotonic()
        code = server.terminate(sig, timeout=bound + 10)
        took = time.monotonic() - started
        self.assertIsNotNone(code, f"did not exit within {bound + 10:.0f} s of {sig.name}")
        self.assertEqual(code, 0, f"{sig.name}: {server.describe_exit()}")
        self.assertLess(took, bound, f"took {took:.2f} s to exit after {sig.name}")
        return took

    def start_slow(self, server, client, skill, pid):
        """Sends the slow request and checks that it is still running 0.5 s later (and that cheap requests answer)."""
        id = client.send_request("nsys/runSkill", self.run_call(skill, pid))
        time.sleep(0.5)
        self.assertLess(probe_latency(client), LATENCY_BOUND_S)
        with self.assertRaises(ReplyTimeout, msg=f"{skill} answered before the case could interrupt it"):
            client.wait_reply(id, 0.01)
        return id

    # -- printf's %c precision --
    def test_six_printfs_stdio_end_with_the_value_limit(self):
        server = self.stdio_server(["--skill-dir", self.skill_dir], options={INIT_SKILL_TIMEOUT: BUDGET_S})
        pid = self.open(server.client)
        started = time.monotonic()
        reply = server.client.request("nsys/runSkill", self.run_call("six_printfs", pid), timeout=30 * SLOW)
        self.assert_failed_within(reply, time.monotonic() - started, BUDGET_S + SLACK_S, LIMIT_MESSAGE)
        self.assert_healthy(server)
        self.assert_exits_within(server)

    def test_six_printfs_tcp_end_with_the_value_limit(self):
        server = self.tcp_server(["--skill-dir", self.skill_dir, OPT_SKILL_TIMEOUT, str(BUDGET_S)])
        client = server.connect_initialized()
        bystander = server.connect_initialized()
        pid = self.open(client)
        started = time.monotonic()
        ids = [client.send_request("nsys/runSkill", self.run_call("six_printfs", pid)) for _ in range(4)]
        self.assertLess(probe_latency(bystander), LATENCY_BOUND_S)
        for id in ids:
            reply = client.wait_reply(id, 30 * SLOW)
            self.assert_failed_within(reply, time.monotonic() - started, BUDGET_S + SLACK_S, LIMIT_MESSAGE)
        self.assert_healthy(server, bystander)
        self.assert_exits_within(server)

    def test_six_printfs_mcp_end_with_the_value_limit(self):
        server = self.mcp_server(["--skill-dir", self.skill_dir, OPT_SKILL_TIMEOUT, str(BUDGET_S)])
        pid = self.mcp_open(server)
        started = time.monotonic()
        reply = server.call_tool("run_skill", {"profile_id": pid, "skill": "six_printfs"}, timeout=30 * SLOW)
        took = time.monotonic() - started
        self.assertTrue("error" in reply or reply["result"].get("isError"), f"answered: {str(reply)[:300]}")
        self.assertRegex(json.dumps(reply), LIMIT_MESSAGE)
        self.assertLess(took, BUDGET_S + SLACK_S, f"run_skill answered after {took:.1f} s")
        started = time.monotonic()
        self.assertIn("result", server.client.request("ping", timeout=LATENCY_BOUND_S * 3))
        self.assertLess(time.monotonic() - started, LATENCY_BOUND_S)
        self.assert_alive(server)
        self.assert_rss(server)
        self.assert_exits_within(server)

    def test_six_printfs_cli_end_with_the_value_limit(self):
        code, out, err, took = self.cli(
            ["skill", "run", "six_printfs", self.profile, "--skill-dir", self.skill_dir, OPT_SKILL_TIMEOUT,
             str(BUDGET_S)],
            timeout=30 * SLOW,
        )
        self.assertEqual(code, 1, f"exit code {code}; stderr: {err[-500:]}")
        self.assertRegex(err, LIMIT_MESSAGE)
        self.assertLess(took, BUDGET_S + SLACK_S + 2 * SLOW, f"it returned after {took:.1f} s")  # + opening

    # -- one long SQL call: budget, cancel, signals --
    def test_long_call_stops_at_its_budget(self):
        server = self.stdio_server(["--skill-dir", self.skill_dir], options={INIT_SKILL_TIMEOUT: BUDGET_S})
        pid = self.open(server.client)
        started = time.monotonic()
        reply = server.client.request("nsys/runSkill", self.run_call("long_trim", pid), timeout=30 * SLOW)
        self.assert_failed_within(reply, time.monotonic() - started, BUDGET_S + SLACK_S, BUDGET_MESSAGE)
        self.assert_healthy(server)

    def test_long_call_cancelled_within_2_s(self):
        server = self.stdio_server(["--skill-dir", self.skill_dir], options={INIT_SKILL_TIMEOUT: LONG_BUDGET_S})
        pid = self.open(server.client)
        id = self.start_slow(server, server.client, "long_trim", pid)
        started = time.monotonic()
        server.client.notify("$/cancelRequest", {"id": id})
        reply = server.client.wait_reply(id, CANCEL_BOUND_S + 10)
        self.assert_failed_within(reply, time.monotonic() - started, CANCEL_BOUND_S, r".", code=REQUEST_CANCELLED)
        self.assert_healthy(server)

    def test_long_call_mcp_cancelled_within_2_s(self):
        server = self.mcp_server(["--skill-dir", self.skill_dir, OPT_SKILL_TIMEOUT, str(LONG_BUDGET_S)])
        pid = self.mcp_open(server)
        client = server.client
        # Four long calls keep every worker busy (the pool has 2 to 4).
        slow = [client.send_request("tools/call", {"name": "run_skill",
                                                   "arguments": {"profile_id": pid, "skill": "long_trim"}})
                for _ in range(4)]
        time.sleep(0.5)
        for id in slow:
            client.notify("notifications/cancelled", {"requestId": id, "reason": "reliability suite"})
        # MCP sends no reply for a cancelled request; the workers are free again within the bound, so a real skill
        # answers promptly (it would wait for the 120 s budget otherwise).
        started = time.monotonic()
        reply = server.call_tool("run_skill", {"profile_id": pid, "skill": "top_kernels", "args": {"limit": 2}},
                                 timeout=10 * SLOW)
        took = time.monotonic() - started
        self.assertFalse(reply["result"].get("isError"), str(reply)[:300])
        self.assertLess(took, CANCEL_BOUND_S, f"run_skill took {took:.1f} s after the long call was cancelled")
        self.assert_alive(server)
        self.assert_rss(server)

    def test_sigterm_during_a_long_call_stdio_tcp_mcp(self):
        for transport in ("stdio", "tcp", "mcp"):
            with self.subTest(transport=transport):
                if transport == "stdio":
                    server = self.stdio_server(["--skill-dir", self.skill_dir],
                                               options={INIT_SKILL_TIMEOUT: LONG_BUDGET_S})
                    self.start_slow(server, server.client, "long_trim", self.open(server.client))
                elif transport == "tcp":
                    server = self.tcp_server(["--skill-dir", self.skill_dir, OPT_SKILL_TIMEOUT, str(LONG_BUDGET_S)])
                    client = server.connect_initialized()
                    pid = self.open(client)
                    for _ in range(3):  # every worker busy
                        client.send_request("nsys/runSkill", self.run_call("long_trim", pid))
                    self.start_slow(server, client, "long_trim", pid)
                else:
                    server = self.mcp_server(["--skill-dir", self.skill_dir, OPT_SKILL_TIMEOUT, str(LONG_BUDGET_S)])
                    pid = self.mcp_open(server)
                    server.client.send_request("tools/call", {"name": "run_skill",
                                                              "arguments": {"profile_id": pid, "skill": "long_trim"}})
                    time.sleep(0.5)
                    self.assert_alive(server)
                self.assert_exits_within(server)

    def test_ctrl_c_on_skill_run_during_a_long_call(self):
        for sig in (signal.SIGINT, signal.SIGTERM):
            with self.subTest(signal=sig.name):
                proc = Process(self.sandbox, ["skill", "run", "long_trim", self.profile, "--skill-dir", self.skill_dir,
                                              OPT_SKILL_TIMEOUT, str(LONG_BUDGET_S)], name="cli")
                self.processes.append(proc)
                time.sleep(1.5 * SLOW)  # opened, the call running
                self.assertTrue(proc.alive(), f"skill run ended early: {proc.describe_exit()}")
                started = time.monotonic()
                code = proc.terminate(sig, timeout=EXIT_BOUND_S + 10)
                took = time.monotonic() - started
                self.assertIsNotNone(code, f"skill run did not stop on {sig.name}")
                self.assertLess(took, EXIT_BOUND_S, f"skill run took {took:.2f} s to stop on {sig.name}")

    # -- a built-in skill made slow --
    def phases_server(self, budget_s):
        self.profile = self.sandbox.copy(SHIPPED_PROFILE, "long_names.sqlite")
        edit_sqlite(self.profile, f"UPDATE NVTX_EVENTS SET text = printf('%.{LONG_NAME_BYTES}c', 'n') || text")
        self.fixtures.add(self.profile)
        server = self.stdio_server(options={INIT_SKILL_TIMEOUT: budget_s})
        return server, self.open(server.client)

    def test_builtin_skill_stops_at_its_budget(self):
        server, pid = self.phases_server(BUDGET_S)
        started = time.monotonic()
        reply = server.client.request("nsys/runSkill", self.run_call("phases", pid), timeout=60 * SLOW)
        self.assert_failed_within(reply, time.monotonic() - started, BUDGET_S + SLACK_S, BUDGET_MESSAGE)
        self.assertIn("phases", reply["error"]["message"])
        self.assert_healthy(server)

    def test_builtin_skill_cancelled_within_2_s(self):
        server, pid = self.phases_server(LONG_BUDGET_S)
        id = self.start_slow(server, server.client, "phases", pid)
        started = time.monotonic()
        server.client.notify("$/cancelRequest", {"id": id})
        reply = server.client.wait_reply(id, CANCEL_BOUND_S + 60)
        self.assert_failed_within(reply, time.monotonic() - started, CANCEL_BOUND_S, r".", code=REQUEST_CANCELLED)
        self.assert_healthy(server)

    def test_sigterm_during_a_builtin_skill(self):
        server, pid = self.phases_server(LONG_BUDGET_S)
        self.start_slow(server, server.client, "phases", pid)
        self.assert_exits_within(server)
