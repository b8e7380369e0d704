"""TCP authentication: a session must present the token the server wrote to a 0600 file, in
`initialize`, before anything else; otherwise -32000 and the connection closes."""

import os
import re
import stat
import subprocess
import time

from harness import (
    Deadline,
    INIT_TOKEN,
    LATENCY_BOUND_S,
    OPT_TOKEN_FILE,
    TOKEN_HEX_CHARS,
    UNAUTHORIZED,
    Process,
    ReliabilityCase,
    ServerGone,
    error_code,
    initialize_params,
    require_option,
)


class TcpAuth(ReliabilityCase):
    def assert_refused_and_closed(self, client, reply):
        self.assert_error(reply, UNAUTHORIZED, "unauthorized")
        self.assertTrue(client.wait_eof(LATENCY_BOUND_S), "the connection stayed open after -32000")

    def test_token_file_is_private(self):
        require_option(self, "serve", OPT_TOKEN_FILE)
        server = self.tcp_server()
        st = os.stat(server.token_path)
        self.assertEqual(stat.S_IMODE(st.st_mode), 0o600, f"token file mode {oct(st.st_mode)}")
        self.assertEqual(st.st_uid, os.getuid())
        self.assertRegex(server.token(), f"^[0-9a-f]{{{TOKEN_HEX_CHARS}}}$")
        self.assertIn(f"(token in {server.token_path})", server.startup_line)
        self.assertEqual(server.terminate(), 0, server.describe_exit())
        self.assertFalse(os.path.exists(server.token_path), "the token file outlived a clean shutdown")

    def test_default_token_file_in_runtime_dir(self):
        server = self.tcp_server(token_file=False)
        path = server.default_token_path()
        self.assertIsNotNone(path, f"the startup line names no token file: {server.startup_line!r}")
        expected = self.sandbox.path("run", "nsys-ai", f"serve-{server.port}.token")
        self.assertEqual(os.path.realpath(path), os.path.realpath(expected))
        self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o600)
        self.assertEqual(stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode), 0o700)
        self.assert_healthy(server)

    def test_no_token(self):
        server = self.tcp_server()
        client = server.connect()
        reply = client.request("initialize", initialize_params(), timeout=LATENCY_BOUND_S)
        self.assert_refused_and_closed(client, reply)
        self.assert_healthy(server)

    def test_wrong_tokens(self):
        server = self.tcp_server()
        token = server.token() or "f" * TOKEN_HEX_CHARS  # (a binary without tokens: any guess must still fail)
        for wrong in ("", "0" * TOKEN_HEX_CHARS, token[:-1], token + "0", token.upper(), 12345, None, [token]):
            with self.subTest(token=wrong if not isinstance(wrong, str) else wrong[:8] + "..."):
                client = server.connect()
                params = initialize_params()
                params["initializationOptions"] = {INIT_TOKEN: wrong}
                reply = client.request("initialize", params, timeout=LATENCY_BOUND_S)
                self.assert_refused_and_closed(client, reply)
        self.assert_healthy(server)

    def test_right_token(self):
        server = self.tcp_server()
        self.assertIsNotNone(server.token(), "the server wrote no token file")
        client = server.connect_initialized()
        self.assertIn("result", client.request("nsys/listSkills", timeout=LATENCY_BOUND_S))
        self.assert_healthy(server, client)

    def test_request_before_initialize(self):
        server = self.tcp_server()
        for method, params in (("nsys/listSkills", None), ("nsys/openProfile", {"path": "/etc/passwd"}),
                               ("shutdown", None)):
            with self.subTest(method=method):
                client = server.connect()
                reply = client.request(method, params, timeout=LATENCY_BOUND_S)
                self.assert_refused_and_closed(client, reply)
        # A notification first must not open the session either: the server may answer -32000 (id null) and close,
        # or just close; a later request must never be served.
        client = server.connect()
        client.notify("initialized", {})
        client.notify("$/cancelRequest", {"id": 1})
        try:
            reply = client.request("nsys/listSkills", timeout=LATENCY_BOUND_S)
            self.assert_refused_and_closed(client, reply)
        except ServerGone:
            pass
        refusals = [m for m in client.replies.values() if "error" in m]
        for refusal in refusals:
            self.assertEqual(error_code(refusal), UNAUTHORIZED, f"reply: {refusal}")
        self.assertTrue(client.wait_eof(LATENCY_BOUND_S), "the connection stayed open")
        self.assert_healthy(server)

    def test_token_file_not_replaceable_by_others(self):
        # A pre-existing file or symlink at the token path (planted by another user) must not be written through.
        require_option(self, "serve", OPT_TOKEN_FILE)
        planted = self.sandbox.path("run", "planted-target")
        with open(planted, "w") as f:
            f.write("do not touch\n")
        link = self.sandbox.path("run", "token-link")
        os.symlink(planted, link)
        proc = Process(self.sandbox, ["serve", "--listen", "127.0.0.1:0", OPT_TOKEN_FILE, link],
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        self.processes.append(proc)
        deadline = Deadline(10)
        while proc.alive() and not re.search(r"listening on", proc.stderr_text()) and not deadline.expired():
            time.sleep(0.05)
        with open(planted) as f:
            self.assertEqual(f.read(), "do not touch\n", "the token was written through a planted symlink")
