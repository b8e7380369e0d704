"""Secrets and commands: a client can neither send the server's LLM
key (or any other variable) to an endpoint of its choosing nor learn which variables exist; an LLM base URL is
http(s) only; the TCP token never reaches the log, log files are 0600, and a client's logLevel is its own; over TCP
and the Unix socket a client may not name programs for the server to run unless it was started with
--allow-client-commands.

The attacker's endpoint is the LLM stand-in of tests/llm (standin.py, run in this process on 127.0.0.1): it records
every request's path, headers and body, and answers with a plain text reply.
"""

import http.server
import json
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time

from harness import (
    INVALID_PARAMS,
    LATENCY_BOUND_S,
    SHIPPED_PROFILE,
    SLOW,
    SOURCE_DIR,
    Client,
    Deadline,
    Process,
    ReliabilityCase,
    SocketChannel,
    initialize_params,
    probe_latency,
    require_option,
)

sys.path.insert(0, os.path.join(SOURCE_DIR, "tests", "llm"))
import standin  # noqa: E402  (tests/llm/standin.py: the stand-in LLM provider)

OPT_ALLOW_CLIENT_COMMANDS = "--allow-client-commands"
SERVER_KEY = "sk-server-key-5f0c1d"  # NSYS_AI_LLM_API_KEY: the server's own endpoint's key
AWS_SECRET = "aws-secret-77ab12"  # a variable of the server's environment that is no LLM key at all
CLIENT_KEY = "sk-client-own-key-9e3"  # a key a client brings for its own endpoint
SIGTERM_BOUND_S = 2.0 * SLOW  # the required bound: a server exits within 2 s of SIGTERM


class Listener:
    """An HTTP endpoint on 127.0.0.1 speaking the OpenAI wire format (standin.Handler), keeping every request."""

    def __init__(self):
        self.requests = []
        listener = self

        class State(standin.State):
            def take(self, record):
                with self.lock:
                    listener.requests.append(record)
                return {"text": ["The stand-in LLM answers."], "stop": "stop"}

        handler = type("Handler", (standin.Handler,), {"state": State({}, "")})
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def seen(self):
        """Everything the endpoint received, as one text (headers and bodies)."""
        return "\n".join(json.dumps(r) for r in list(self.requests))

    def authorizations(self):
        return [r["headers"].get("authorization", "") for r in list(self.requests)]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Secrets(ReliabilityCase):
    def setUp(self):
        super().setUp()
        self.listeners = []
        self.env_extra = {}
        base_env = self.sandbox.env
        self.sandbox.env = lambda: {**base_env(), **self.env_extra}
        self.scratch = tempfile.mkdtemp(prefix="nsys-secrets-")  # the case's own files, outside the sandbox

    def tearDown(self):
        for listener in self.listeners:
            listener.close()
        subprocess.run(["rm", "-rf", self.scratch], check=False)
        super().tearDown()

    # -- helpers --
    def listener(self):
        listener = Listener()
        self.listeners.append(listener)
        return listener

    def serve_llm(self, own):
        """The server's environment: its own endpoint `own` with SERVER_KEY, and an unrelated secret."""
        self.env_extra.update(NSYS_AI_LLM_PROVIDER="openai", NSYS_AI_LLM_MODEL="served-model",
                              NSYS_AI_LLM_BASE_URL=own.url, NSYS_AI_LLM_API_KEY=SERVER_KEY,
                              AWS_SECRET_ACCESS_KEY=AWS_SECRET)
        self.env_extra.pop("NSYS_AI_X_SURELY_UNSET", None)

    def finish(self, server, client=None):
        """What every case ends with: alive, a cheap request within the bound, and an exit within 2 s of SIGTERM."""
        self.assert_healthy(server, client)
        started = time.monotonic()
        code = server.terminate(signal.SIGTERM, timeout=SIGTERM_BOUND_S + 5)
        took = time.monotonic() - started
        self.assertIsNotNone(code, f"did not exit within {SIGTERM_BOUND_S + 5:.0f} s of SIGTERM")
        self.assertEqual(code, 0, server.describe_exit())
        self.assertLess(took, SIGTERM_BOUND_S, f"took {took:.1f} s to exit after SIGTERM")

    def ask(self, client):
        """Opens the shipped profile and asks a question never asked before (the answer cache would answer a repeated
        one without a request); returns the nsys/ask reply."""
        self.questions = getattr(self, "questions", 0) + 1
        opened = client.result("nsys/openProfile", {"path": SHIPPED_PROFILE}, timeout=60 * SLOW)
        question = f"which kernel takes longest? (question {self.questions} of {self.id()})"
        return client.request("nsys/ask", {"profileId": opened["profileId"], "question": question}, timeout=60 * SLOW)

    def initialize_tcp(self, server, options):
        client = server.connect()
        return client, client.request("initialize", initialize_params(server.token(), options), timeout=30 * SLOW)

    def assert_nothing_leaked(self, *listeners):
        for listener in listeners:
            seen = listener.seen()
            self.assertNotIn(SERVER_KEY, seen, "the server's key reached an endpoint a client chose")
            self.assertNotIn(AWS_SECRET, seen, "another variable's value reached an endpoint a client chose")

    def refused_key_variable(self, reply):
        self.assert_error(reply, INVALID_PARAMS, "apiKeyEnv")
        message = reply["error"]["message"]
        self.assertNotIn(SERVER_KEY, message)
        self.assertNotIn(AWS_SECRET, message)
        return message

    # -- the server's key and environment --
    def test_llm_key_and_variables_never_reach_a_client_chosen_endpoint_tcp(self):
        own, attacker = self.listener(), self.listener()
        self.serve_llm(own)
        server = self.tcp_server()
        messages = {}
        for var in ("NSYS_AI_LLM_API_KEY", "AWS_SECRET_ACCESS_KEY", "NSYS_AI_X_SURELY_UNSET"):
            with self.subTest(apiKeyEnv=var):
                client, reply = self.initialize_tcp(
                    server, {"llm": {"provider": "openai", "model": "m", "baseUrl": attacker.url, "apiKeyEnv": var}})
                messages[var] = self.refused_key_variable(reply)
                client.close()
        # One message whatever the variable: refused, another secret, unset: a client learns nothing of what exists.
        self.assertEqual(len(set(messages.values())), 1, f"the refusals differ: {messages}")
        self.assertNotIn("has no variable", next(iter(messages.values())))

        # A client's own endpoint without a key gets no key; with its own key, that key and only that.
        client = server.connect_initialized({"llm": {"provider": "openai", "model": "m", "baseUrl": attacker.url}})
        self.ask(client)
        self.assertTrue(attacker.requests, "the client's own endpoint was never asked")
        self.assertEqual(set(attacker.authorizations()), {""}, "a key was sent to an endpoint the client chose")
        client.close()
        client = server.connect_initialized(
            {"llm": {"provider": "openai", "model": "m", "baseUrl": attacker.url, "apiKey": CLIENT_KEY}})
        before = len(attacker.requests)
        reply = self.ask(client)
        self.assertIn("result", reply, reply)
        self.assertTrue(reply["result"]["usedLlm"], reply["result"])
        self.assertEqual(set(attacker.authorizations()[before:]), {f"Bearer {CLIENT_KEY}"})
        client.close()

        # The server's endpoint by name: its key goes to its URL only.
        client = server.connect_initialized({"llm": {"endpoint": "default"}})
        reply = self.ask(client)
        self.assertIn("result", reply, reply)
        self.assertTrue(own.requests, "the server's endpoint was never asked")
        self.assertEqual(set(own.authorizations()), {f"Bearer {SERVER_KEY}"})
        # ... and so does naming its variable with its own URL.
        client.close()
        client = server.connect_initialized(
            {"llm": {"provider": "openai", "model": "m", "baseUrl": own.url, "apiKeyEnv": "NSYS_AI_LLM_API_KEY"}})
        self.assertIn("result", self.ask(client))
        client.close()
        self.assert_nothing_leaked(attacker)
        self.assertNotIn(SERVER_KEY, server.stderr_text())
        self.finish(server)

    def test_llm_key_never_reaches_an_endpoint_from_a_repository_stdio(self):
        # Over stdio the same options come from an editor's workspace settings (a cloned repository's).
        own, attacker = self.listener(), self.listener()
        self.serve_llm(own)
        server = self.stdio_server(initialize=False)
        for var in ("NSYS_AI_LLM_API_KEY", "AWS_SECRET_ACCESS_KEY", "NSYS_AI_X_SURELY_UNSET"):
            with self.subTest(apiKeyEnv=var):
                reply = server.client.request("initialize", initialize_params(options={"llm": {
                    "provider": "openai", "model": "m", "baseUrl": attacker.url, "apiKeyEnv": var}}),
                    timeout=30 * SLOW)
                self.refused_key_variable(reply)
        server.initialize({"llm": {"provider": "openai", "model": "m", "baseUrl": attacker.url}})
        self.ask(server.client)
        self.assertTrue(attacker.requests)
        self.assert_nothing_leaked(attacker)
        self.finish(server)

    # -- only http(s) --
    def test_llm_base_url_must_be_http(self):
        secret = os.path.join(self.scratch, "secret.txt")
        with open(secret, "w") as f:
            f.write("root:x:0:0:secret-file-contents\n")
        file_url = "file://" + secret + "?"
        server = self.stdio_server(initialize=False)
        reply = server.client.request("initialize", initialize_params(
            options={"llm": {"provider": "openai", "model": "m", "baseUrl": file_url}}), timeout=30 * SLOW)
        self.assert_error(reply, INVALID_PARAMS, "http")
        self.assertNotIn("secret-file-contents", json.dumps(reply))
        server.initialize()
        self.finish(server)
        # The server's own configuration (the CLI's ask reads it too): refused before anything is read.
        self.env_extra.update(NSYS_AI_LLM_PROVIDER="openai", NSYS_AI_LLM_MODEL="m", NSYS_AI_LLM_BASE_URL=file_url)
        code, out, err, _ = self.cli(["ask", SHIPPED_PROFILE, "which kernel takes longest?"], timeout=60 * SLOW)
        self.assertNotEqual(code, 0, out)
        self.assertIn("NSYS_AI_LLM_BASE_URL", err)
        self.assertNotIn("secret-file-contents", out + err)

    # -- the token in the log, the log's mode, a client's logLevel --
    def test_debug_log_holds_no_token_and_is_private(self):
        log = self.sandbox.path("home", "serve.log")
        if hasattr(self, "expect_output"):
            self.expect_output(log)
        old_mask = os.umask(0o022)
        try:
            server = self.tcp_server(["--log-level", "debug", "--log-file", log])
        finally:
            os.umask(old_mask)
        client = server.connect_initialized({"llm": {"provider": "openai", "model": "m",
                                                     "baseUrl": "http://u:pw-in-url@127.0.0.1:9/v1?key=url-key",
                                                     "apiKey": CLIENT_KEY}})
        probe_latency(client)
        token = server.token()
        with open(log) as f:
            text = f.read()
        self.assertIn("initialize", text, "the debug log has no initialize line")
        for secret in (token, CLIENT_KEY, "pw-in-url", "url-key"):
            self.assertNotIn(secret, text, "a secret is in the debug log")
        self.assertEqual(stat.S_IMODE(os.stat(log).st_mode), 0o600, "the log file is not 0600")
        self.finish(server, client)
        # A log file planted as a symlink is refused, and its target untouched.
        victim = os.path.join(self.scratch, "victim")
        with open(victim, "w") as f:
            f.write("keep\n")
        link = self.sandbox.path("work", "link.log")
        os.symlink(victim, link)
        code, _, err, _ = self.cli(["--log-file", link, "version"], timeout=30 * SLOW)
        self.assertNotEqual(code, 0)
        self.assertIn("symbolic link", err)
        with open(victim) as f:
            self.assertEqual(f.read(), "keep\n")
        os.unlink(link)

    def test_client_log_level_is_its_own(self):
        server = self.tcp_server()  # a daemon logs at info
        quiet = server.connect_initialized({"logLevel": "error"})
        loud = server.connect_initialized({"logLevel": "debug"})
        for client in (quiet, loud):
            probe_latency(client)
            client.request("nsys/openProfile", {"path": "/nonexistent/x.sqlite"})
        time.sleep(0.2)
        debug_lines = [line for line in server.stderr_text().splitlines() if re.match(r"^\[[0-9:.]+ D\]", line)]
        self.assertEqual(debug_lines, [], "a client's logLevel switched the process's log to debug")
        quiet.close()
        self.finish(server, loud)

    # -- programs a client names --
    def command_options(self, marker):
        return [("runLauncher", ["sh", "-c", f"touch {marker}", "sh"]), ("nsysPath", "/bin/sh")]

    def test_client_commands_refused_over_tcp(self):
        require_option(self, "serve", OPT_ALLOW_CLIENT_COMMANDS)
        marker = os.path.join(self.scratch, "ran")
        server = self.tcp_server()
        for name, value in self.command_options(marker):
            with self.subTest(option=name):
                client, reply = self.initialize_tcp(server, {name: value})
                self.assert_error(reply, INVALID_PARAMS, [name, OPT_ALLOW_CLIENT_COMMANDS])
                client.close()
        self.assertFalse(os.path.exists(marker))
        self.finish(server)
        allowed = self.tcp_server([OPT_ALLOW_CLIENT_COMMANDS])
        for name, value in self.command_options(marker):
            with self.subTest(option=name, allowed=True):
                client, reply = self.initialize_tcp(allowed, {name: value})
                self.assertIn("result", reply, reply)
                client.close()
        self.finish(allowed)

    def test_client_commands_refused_over_the_unix_socket(self):
        require_option(self, "serve", OPT_ALLOW_CLIENT_COMMANDS)
        folder = self.sandbox.path("run", "sock")
        os.mkdir(folder, 0o700)
        path = os.path.join(folder, "s")
        server = Process(self.sandbox, ["serve", "--socket", path], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL)
        self.processes.append(server)
        deadline = Deadline(30 * SLOW)
        while not os.path.exists(path) and server.alive() and not deadline.expired():
            time.sleep(0.02)
        self.assertTrue(os.path.exists(path), server.describe_exit())

        def connect():
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(5)
            sock.connect(path)
            return Client(SocketChannel(sock))

        marker = os.path.join(self.scratch, "ran")
        for name, value in self.command_options(marker):
            with self.subTest(option=name):
                client = connect()
                reply = client.request("initialize", initialize_params(options={name: value}), timeout=30 * SLOW)
                self.assert_error(reply, INVALID_PARAMS, [name, OPT_ALLOW_CLIENT_COMMANDS])
                client.close()
        self.assertFalse(os.path.exists(marker))
        client = connect()
        client.request("initialize", initialize_params(), timeout=30 * SLOW)
        self.finish(server, client)

    def test_client_commands_kept_over_stdio(self):
        marker = os.path.join(self.scratch, "ran")
        server = self.stdio_server(options={"runLauncher": ["sh", "-c", f"touch {marker}", "sh"],
                                            "nsysPath": "/bin/true"})
        self.finish(server)
        # The flag means something only where clients connect over a network or a socket.
        code, _, err, _ = self.cli(["serve", "--stdio", OPT_ALLOW_CLIENT_COMMANDS], timeout=30 * SLOW)
        self.assertEqual(code, 2, err)
        self.assertIn("--listen or --socket", err)
