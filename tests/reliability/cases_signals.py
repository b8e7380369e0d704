"""SIGTERM and SIGINT shut every server down cleanly (exit 0), also with a request running."""

import json
import signal
import time

from harness import SHIPPED_PROFILE, SLOW, ReliabilityCase

ENDLESS_SKILL = {
    "name": "endless",
    "description": "Never ends.",
    "sql": "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) AS n FROM r",
}
EXIT_BOUND_S = 5 * SLOW


class Signals(ReliabilityCase):
    def assert_clean_exit(self, server, sig=signal.SIGTERM):
        started = time.monotonic()
        code = server.terminate(sig, timeout=EXIT_BOUND_S + 5)
        took = time.monotonic() - started
        self.assertIsNotNone(code, f"did not exit within {EXIT_BOUND_S + 5:.0f} s of {sig.name}")
        self.assertEqual(code, 0, f"{sig.name}: {server.describe_exit()}")
        self.assertLess(took, EXIT_BOUND_S, f"took {took:.1f} s to exit after {sig.name}")

    def test_serve_stdio_sigterm(self):
        self.assert_clean_exit(self.stdio_server())

    def test_serve_stdio_sigint(self):
        self.assert_clean_exit(self.stdio_server(), signal.SIGINT)

    def test_serve_listen_sigterm(self):
        server = self.tcp_server()
        client = server.connect_initialized()
        self.assertIn("result", client.request("nsys/listSkills"))
        self.assert_clean_exit(server)

    def test_mcp_sigterm(self):
        self.assert_clean_exit(self.mcp_server())

    def test_sigterm_with_a_request_running(self):
        self.sandbox.write_skill(ENDLESS_SKILL)
        profile = self.sandbox.copy(SHIPPED_PROFILE)
        self.fixtures.add(profile)
        server = self.stdio_server(["--skill-dir", self.sandbox.path("skills")])
        pid = server.client.result("nsys/openProfile", {"path": profile}, timeout=60 * SLOW)["profileId"]
        server.client.send_request("nsys/runSkill", {"profileId": pid, "skill": "endless"})
        time.sleep(0.5)
        self.assert_clean_exit(server)

    def test_mcp_sigterm_with_a_request_running(self):
        self.sandbox.write_skill(ENDLESS_SKILL)
        profile = self.sandbox.copy(SHIPPED_PROFILE)
        self.fixtures.add(profile)
        server = self.mcp_server(["--skill-dir", self.sandbox.path("skills")])
        opened = server.call_tool("open_profile", {"path": profile}, timeout=60 * SLOW)
        text = json.loads(opened["result"]["content"][0]["text"])
        pid = text.get("profile_id") or text.get("profileId")
        server.client.send_request("tools/call", {"name": "run_skill", "arguments": {"profile_id": pid,
                                                                                       "skill": "endless"}})
        time.sleep(0.5)
        self.assert_clean_exit(server)
