"""Endless and huge user skills through serve (stdio, TCP), mcp (with notifications/cancelled) and `skill run`:
an error within the time budget, the server still serving, memory bounded; and SQL functions no skill may reach."""

import json
import time

from harness import (
    GROWTH,
    DEFAULT_SKILL_TIMEOUT_S,
    INIT_SKILL_TIMEOUT,
    INTERNAL_ERROR,
    LATENCY_BOUND_S,
    OPT_SKILL_TIMEOUT,
    REQUEST_FAILED,
    SHIPPED_PROFILE,
    SLOW,
    ReliabilityCase,
    ReplyTimeout,
    error_code,
    probe_latency,
    rss_mb,
)

BUDGET_S = 2  # the budget the cases set (--skill-timeout / initializationOptions)
SLACK_S = 3 * SLOW  # how much later than the budget the error may come

SKILLS = [
    {
        "name": "endless",
        "description": "An endless recursive CTE.",
        "sql": "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) AS n FROM r",
    },
    {
        "name": "huge_rows",
        "description": "Ten million rows of 1000 bytes each.",
        "sql": "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r LIMIT 10000000) "
        "SELECT i, printf('%.1000c', 'x') AS pad FROM r",
        "max_rows": 100000,  # the cap: the 64 MiB result bound must stop it (a larger max_rows is refused at load)
    },
    {
        "name": "huge_cell",
        "description": "One cell of 100 MB.",
        # A string doubled 27 times (128 MiB), not printf, which answers NULL past SQLite's length limit.
        "sql": "WITH RECURSIVE r(s, n) AS (SELECT 'x', 0 UNION ALL SELECT s || s, n + 1 FROM r WHERE n < 27) "
        "SELECT s AS big FROM r WHERE n = 27",
    },
    {
        "name": "fts3_pointer",
        "description": "Reads a pointer out of the FTS3 tokenizer registry.",
        "sql": "SELECT hex(fts3_tokenizer('simple')) AS p",
    },
    {
        "name": "load_ext",
        "description": "Loads a shared library.",
        "sql": "SELECT load_extension('/nonexistent/libx.so') AS x",
    },
]

RSS_GROWTH_MB = 300 * GROWTH
RESULT_BYTES_BOUND = 64 << 20  # a skill result on the wire (the contract bounds it in bytes; the value is not fixed)


class UserSkills(ReliabilityCase):
    def setUp(self):
        super().setUp()
        for skill in SKILLS:
            self.sandbox.write_skill(skill)
        self.skill_dir = self.sandbox.path("skills")
        self.profile = self.sandbox.copy(SHIPPED_PROFILE)
        self.fixtures.add(self.profile)

    def open(self, client):
        return client.result("nsys/openProfile", {"path": self.profile}, timeout=60 * SLOW)["profileId"]

    def assert_budget_error(self, reply, took):
        self.assertIn("error", reply, f"the endless skill answered a result: {str(reply)[:300]}")
        self.assertEqual(error_code(reply), REQUEST_FAILED, f"reply: {reply}")
        self.assertRegex(reply["error"]["message"], r"(?i)budget|timeout|time limit|stopped after",
                         "the error does not name the time budget")
        self.assertLess(took, BUDGET_S + SLACK_S, f"the endless skill was stopped after {took:.1f} s")

    def test_endless_skill_stdio_stops_within_budget(self):
        server = self.stdio_server(["--skill-dir", self.skill_dir], options={INIT_SKILL_TIMEOUT: BUDGET_S})
        pid = self.open(server.client)
        started = time.monotonic()
        id = server.client.send_request("nsys/runSkill", {"profileId": pid, "skill": "endless"})
        # Meanwhile cheap requests answer.
        self.assertLess(probe_latency(server.client), LATENCY_BOUND_S)
        reply = server.client.wait_reply(id, BUDGET_S + SLACK_S + 10)
        self.assert_budget_error(reply, time.monotonic() - started)
        self.assert_healthy(server)

    def test_endless_skills_do_not_block_other_clients(self):
        # Two slow requests with two workers used to block even nsys/listSkills for everyone.
        server = self.tcp_server(["--skill-dir", self.skill_dir])
        attacker = server.connect_initialized()
        bystander = server.connect_initialized()
        pid = self.open(attacker)
        ids = [attacker.send_request("nsys/runSkill", {"profileId": pid, "skill": "endless"}) for _ in range(4)]
        time.sleep(0.5)
        worst = max(probe_latency(bystander, bound=LATENCY_BOUND_S * 3) for _ in range(5))
        self.assertLess(worst, LATENCY_BOUND_S, f"nsys/listSkills took {worst:.2f} s while endless skills ran")
        # Every endless request ends (default budget) rather than holding its worker forever.
        for id in ids:
            reply = attacker.wait_reply(id, 4 * (DEFAULT_SKILL_TIMEOUT_S + SLACK_S))
            self.assertEqual(error_code(reply), REQUEST_FAILED, f"reply: {reply}")
        self.assert_healthy(server, bystander)

    def test_huge_rows_bounded(self):
        # A user skill's max_rows used to have no cap (2 GB in 10 s). Each skill gets a fresh server.
        for skill in ("huge_rows", "huge_cell"):
            with self.subTest(skill=skill):
                self.check_huge(skill)

    def check_huge(self, skill):
        server = self.stdio_server(["--skill-dir", self.skill_dir], options={INIT_SKILL_TIMEOUT: 10})
        pid = self.open(server.client)
        base = rss_mb(server.pid)
        started = time.monotonic()
        id = server.client.send_request("nsys/runSkill", {"profileId": pid, "skill": skill})
        peak = base
        limit_s = 10 + SLACK_S + 10
        while True:
            peak = max(peak, rss_mb(server.pid) or 0)
            # Stop early rather than let an unbounded server take the machine's memory.
            self.assertLess(peak - base, RSS_GROWTH_MB, f"{skill} grew the server by {peak - base:.0f} MiB")
            try:
                reply = server.client.wait_reply(id, 0.2)
                break
            except ReplyTimeout:
                self.assert_alive(server)
                if time.monotonic() - started > limit_s:
                    self.fail(f"{skill} did not answer within {limit_s:.0f} s")
        took = time.monotonic() - started
        outcome = f"error {reply['error']}" if "error" in reply else f"{len(reply['result']['rows'])} rows"
        print(f"  {skill}: {took:.1f} s, RSS {base:.0f} -> peak {peak:.0f} MiB, {outcome[:200]}")
        self.assertNotEqual(error_code(reply), INTERNAL_ERROR, f"reply: {str(reply)[:300]}")
        if "result" in reply:
            size = len(json.dumps(reply["result"]))
            self.assertLess(size, RESULT_BYTES_BOUND, f"{skill} returned {size} bytes")
            self.assertTrue(any("max_rows" in n or "bytes" in n or "first" in n for n in reply["result"]["notes"]),
                            "a cut result does not say so")
        self.assert_healthy(server)
        server.terminate()

    def test_hostile_sql_functions_refused(self):
        # fts3_tokenizer('simple') used to hand out a pointer into libsqlite3 (and the 2-argument form installs one).
        server = self.stdio_server(["--skill-dir", self.skill_dir])
        pid = self.open(server.client)
        for skill in ("fts3_pointer", "load_ext"):
            with self.subTest(skill=skill):
                reply = server.client.request("nsys/runSkill", {"profileId": pid, "skill": skill}, timeout=10 * SLOW)
                self.assertIn("error", reply, f"{skill} ran: {str(reply)[:300]}")
                self.assertNotEqual(error_code(reply), INTERNAL_ERROR, f"reply: {reply}")
        self.assert_healthy(server)

    def test_mcp_endless_skill_cancelled(self):
        # MCP used to run one request at a time and ignore notifications/cancelled.
        server = self.mcp_server(["--skill-dir", self.skill_dir])
        opened = server.call_tool("open_profile", {"path": self.profile}, timeout=60 * SLOW)
        self.assertFalse(opened["result"].get("isError"), str(opened)[:300])
        pid = json.loads(opened["result"]["content"][0]["text"]).get("profile_id") or json.loads(
            opened["result"]["content"][0]["text"]).get("profileId")
        client = server.client
        endless = client.send_request("tools/call", {"name": "run_skill",
                                                     "arguments": {"profile_id": pid, "skill": "endless"}})
        time.sleep(0.3)
        # Requests are served concurrently: ping answers while the endless skill runs.
        started = time.monotonic()
        self.assertIn("result", client.request("ping", timeout=LATENCY_BOUND_S * 3))
        self.assertLess(time.monotonic() - started, LATENCY_BOUND_S, "MCP ping waited for the endless skill")
        client.notify("notifications/cancelled", {"requestId": endless, "reason": "reliability suite"})
        # After the cancel the server is free: a real skill answers promptly.
        started = time.monotonic()
        reply = server.call_tool("run_skill", {"profile_id": pid, "skill": "top_kernels", "args": {"limit": 2}},
                                 timeout=10 * SLOW)
        took = time.monotonic() - started
        self.assertIn("result", reply, str(reply)[:300])
        self.assertFalse(reply["result"].get("isError"), str(reply)[:300])
        self.assertLess(took, 5 * SLOW, f"run_skill took {took:.1f} s after the endless one was cancelled")
        self.assert_alive(server)
        self.assert_rss(server)

    def test_mcp_endless_skill_stops_on_its_own(self):
        server = self.mcp_server(["--skill-dir", self.skill_dir, OPT_SKILL_TIMEOUT, str(BUDGET_S)])
        self.assertTrue(server.alive(), f"mcp does not take {OPT_SKILL_TIMEOUT}: {server.describe_exit()}")
        opened = server.call_tool("open_profile", {"path": self.profile}, timeout=60 * SLOW)
        text = json.loads(opened["result"]["content"][0]["text"])
        pid = text.get("profile_id") or text.get("profileId")
        started = time.monotonic()
        reply = server.call_tool("run_skill", {"profile_id": pid, "skill": "endless"}, timeout=BUDGET_S + SLACK_S + 10)
        took = time.monotonic() - started
        self.assertLess(took, BUDGET_S + SLACK_S, f"the endless skill answered after {took:.1f} s")
        failed = "error" in reply or reply["result"].get("isError")
        self.assertTrue(failed, f"the endless skill did not fail: {str(reply)[:300]}")
        self.assertRegex(json.dumps(reply), r"(?i)budget|timeout|time limit|stopped after")

    def test_cli_skill_run_with_short_budget(self):
        code, out, err, took = self.cli(
            ["skill", "run", "endless", self.profile, "--skill-dir", self.skill_dir, OPT_SKILL_TIMEOUT, str(BUDGET_S)],
            timeout=BUDGET_S + SLACK_S + 10,
        )
        self.assertIsNotNone(code, f"nsys-ai skill run endless {OPT_SKILL_TIMEOUT} {BUDGET_S} did not return")
        self.assertEqual(code, 1, f"exit code {code}; stderr: {err[-500:]}")
        self.assertLess(took, BUDGET_S + SLACK_S, f"it returned after {took:.1f} s")
        self.assertRegex(err, r"(?i)budget|timeout|time limit|stopped after")

    def test_cli_skill_run_default_budget(self):
        code, out, err, took = self.cli(["skill", "run", "endless", self.profile, "--skill-dir", self.skill_dir],
                                        timeout=DEFAULT_SKILL_TIMEOUT_S + SLACK_S + 10)
        self.assertIsNotNone(code, "nsys-ai skill run endless did not return (no default time budget)")
        self.assertEqual(code, 1, f"exit code {code}; stderr: {err[-500:]}")
        self.assertLess(took, DEFAULT_SKILL_TIMEOUT_S + SLACK_S, f"it returned after {took:.1f} s")
