"""Client library of the reliability suite: spawns the real nsys-ai binary, speaks JSON-RPC to it over stdio, TCP
(LSP base-protocol framing) and MCP (one JSON message per line), and checks the server's health after an attack.

Standard library only. Every blocking call takes a deadline, so a hung server fails a case instead of hanging ctest.

Every case ends with the same checks (ReliabilityCase.tearDown; `assert_healthy` runs the first three mid-case):
the server is alive, nsys/listSkills answers within LATENCY_BOUND_S, its RSS is under RSS_BOUND_MB, the fixtures
keep their sha256, no sanitizer report -- and `check_private_files`: a scan of the whole sandbox (HOME,
XDG_CACHE_HOME, XDG_CONFIG_HOME, XDG_RUNTIME_DIR, TMPDIR -- all inside it -- and the working directory) after the
servers stopped. Every directory nsys-ai created there is ours with mode 0700, every file it created is ours with
mode 0600 (a socket: no group/other bits), and everything it created lies inside a directory it created, except the
outputs the case asked for. What "nsys-ai created" means: when the suite runs as root every spawned binary runs with
group SERVER_GID, so its files carry that group and the case's own files do not; otherwise, what is new in the
sandbox's state directories (HOME, cache, config, runtime, TMPDIR) and `.nsys-ai` in the working directory.
The API for cases is small:
- `self.expect_output(path)`: a file the case asked the server to write (an export target); any mode, any place.
  Paths sent as an `output` parameter, after `-o`/`--output`/`--token-file` on a spawned command line, and a TCP
  server's token file are registered by the harness itself.
- `self.private_files_checked = False`: a case that must leave the server's files in a state the check refuses
  (none does today) opts out, saying why in a comment.
Every server (serve --stdio, serve --listen, mcp) still running when a case ends is sent SIGTERM and must exit
within SIGTERM_EXIT_BOUND_S (2 s and 0.5 s to reap; 6 s under sanitizers); `self.sigterm_checked = False` opts a case out.
"""

import contextlib
import hashlib
import json
import os
import re
import resource
import select
import shutil
import signal
import socket
import sqlite3
import subprocess
import tempfile
import time
import unittest

# ---------------------------------------------------------------------------------------------------------------------
# Constants: the option names, limits and bounds the suite is written to (/work/notes/CONTRACT.md). Adjust here only.
# ---------------------------------------------------------------------------------------------------------------------

# Command-line options of the hardening work. A case that needs one the binary does not list in its --help fails,
# saying so; the other cases run without it.
OPT_TOKEN_FILE = "--token-file"  # serve --listen: where the TCP token is written (mode 0600)
OPT_IDLE_TIMEOUT = "--idle-timeout"  # serve: seconds a partial message (or an uninitialized TCP session) may idle
OPT_MAX_CONNECTIONS = "--max-connections"  # serve --listen: connection limit
OPT_SKILL_TIMEOUT = "--skill-timeout"  # skill run / serve / mcp: a user skill's time budget in seconds
OPT_FORCE = "--force"  # export: overwrite an existing file that is not a trace
INIT_TOKEN = "token"  # initialize.params.initializationOptions.<this>
INIT_SKILL_TIMEOUT = "skillTimeoutSeconds"  # initialize.params.initializationOptions.<this>

# Limits of the contract (defaults, when the option above is not given).
BODY_LIMIT = 16 << 20
HEADER_LIMIT = 8 << 10
DEFAULT_MAX_CONNECTIONS = 64
DEFAULT_SKILL_TIMEOUT_S = 5.0
TOKEN_HEX_CHARS = 64

# JSON-RPC error codes (protocol/include/nsys/protocol/jsonrpc.h).
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
SERVER_NOT_INITIALIZED = -32002
UNAUTHORIZED = -32000
REQUEST_CANCELLED = -32800
REQUEST_FAILED = -32803

# Sanitizer builds (ASan+UBSan) are 3-5x slower and use more memory; tests/CMakeLists.txt sets this variable there.
SANITIZED = os.environ.get("NSYS_AI_SANITIZED", "") not in ("", "0", "OFF", "off")
SLOW = 4.0 if SANITIZED else 1.0
GROWTH = 1.5 if SANITIZED else 1.0  # memory growth bounds scale by this (redzones, allocator caches)
# A cheap request (nsys/listSkills, MCP ping) must answer within this many seconds whatever else happens.
LATENCY_BOUND_S = 5.0 if SANITIZED else 2.0
# The server's resident memory after an attack must stay under this (MiB). A loaded small profile needs ~60 MiB
# (Release); ASan's shadow memory and quarantine add a few hundred.
RSS_BOUND_MB = 1200 if SANITIZED else 400
# A server still running at the end of a case must exit within this many seconds of SIGTERM (whatever a
# worker is doing); the sanitizers' exit work gets more. The contract is 2 s from the signal (the server's own
# watchdog ends it at 1.9 s); the suite measures from its kill() to its waitpid(), which on a loaded 2-core machine
# (nsys conformance beside it) adds scheduling of both processes: REAP_SLACK_S of it is allowed, and no more.
REAP_SLACK_S = 0.5
SIGTERM_EXIT_BOUND_S = 6.0 if SANITIZED else 2.0 + REAP_SLACK_S
# A case's own watchdog (the ctest TIMEOUT is the backstop).
CASE_TIMEOUT_S = 90 * SLOW
# Sanitizer reports in a server's stderr fail the case that caused them.
SANITIZER_MARKERS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:", "ERROR: UndefinedBehavior")

HOST = "127.0.0.1"  # all traffic stays on the loopback interface

# check_private_files: as root, every spawned binary runs with this group, so that the files it creates can be told
# from the case's own (an otherwise unused gid; not nogroup, which the cases use for "another user").
SERVER_GID = 43717
ATTRIBUTE_BY_GROUP = os.geteuid() == 0
# Paths the case asked the server to write (exports, token files): filled by the harness, reset by each case.
ASKED_OUTPUTS = set()
CASE_WORKDIR = [None]  # the running case's working directory (relative outputs resolve against it)

BINARY = os.path.abspath(os.environ["NSYS_AI_BINARY"]) if os.environ.get("NSYS_AI_BINARY") else ""  # cwd is the sandbox
SOURCE_DIR = os.environ.get("NSYS_AI_SOURCE_DIR", os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..")))
FIXTURES_DIR = os.environ.get("NSYS_AI_FIXTURES_DIR", os.path.join(SOURCE_DIR, "..", "shared", "fixtures"))

# The profile every case uses: shipped in the repository, so the suite never skips for want of fixtures.
SHIPPED_PROFILE = os.path.join(SOURCE_DIR, "examples", "h100_2gpu_1s.sqlite")


def small_fixture():
    """The smallest real export with kernels: mock.sqlite from the shared fixtures when present, else the shipped one."""
    mock = os.path.join(FIXTURES_DIR, "mock.sqlite")
    return mock if os.path.isfile(mock) else SHIPPED_PROFILE


# ---------------------------------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------------------------------


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def rss_mb(pid):
    """Resident set size of a process in MiB (VmRSS of /proc/PID/status), or None when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except (FileNotFoundError, ProcessLookupError):
        return None
    return None


def cpu_seconds(pid):
    """User + system CPU time of a process (all its threads) in seconds, from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime, stime (fields 14, 15 counting from pid)


def frame(body):
    """One LSP base-protocol frame around a JSON value (dict/list) or raw bytes/str."""
    if isinstance(body, (dict, list)):
        body = json.dumps(body, separators=(",", ":"))
    if isinstance(body, str):
        body = body.encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def request_body(id, method, params=None):
    msg = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        msg["params"] = params
    return msg


class Deadline:
    def __init__(self, seconds):
        self.end = time.monotonic() + seconds

    def left(self):
        return max(0.0, self.end - time.monotonic())

    def expired(self):
        return time.monotonic() >= self.end


class ServerGone(AssertionError):
    """The connection closed (EOF) while a reply was awaited."""


class ReplyTimeout(AssertionError):
    """No reply within the bound."""


# ---------------------------------------------------------------------------------------------------------------------
# Channels: bytes in and out with deadlines (a pipe pair or a socket)
# ---------------------------------------------------------------------------------------------------------------------


class PipeChannel:
    def __init__(self, write_file, read_file):
        self.w = write_file
        self.r = read_file
        os.set_blocking(self.r.fileno(), False)

    def send(self, data, timeout=10.0):
        fd = self.w.fileno()
        view = memoryview(data)
        deadline = Deadline(timeout)
        os.set_blocking(fd, False)
        while view:
            _, writable, _ = select.select([], [fd], [], deadline.left())
            if not writable:
                raise ReplyTimeout(f"could not write to the server for {timeout:.1f} s (it stopped reading)")
            try:
                n = os.write(fd, view)
            except BlockingIOError:
                continue
            except BrokenPipeError:
                raise ServerGone("the server closed its input (did it exit?)") from None
            view = view[n:]

    def recv_some(self, timeout):
        fd = self.r.fileno()
        readable, _, _ = select.select([fd], [], [], timeout)
        if not readable:
            return None
        try:
            return os.read(fd, 1 << 20)
        except BlockingIOError:
            return None

    def close(self):
        with contextlib.suppress(OSError):
            self.w.close()


class SocketChannel:
    def __init__(self, sock):
        self.sock = sock
        self.sock.setblocking(False)

    def send(self, data, timeout=10.0):
        view = memoryview(data)
        deadline = Deadline(timeout)
        while view:
            _, writable, _ = select.select([], [self.sock], [], deadline.left())
            if not writable:
                raise ReplyTimeout(f"could not write to the server for {timeout:.1f} s (it stopped reading)")
            try:
                n = self.sock.send(view)
            except BlockingIOError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                raise ServerGone("the server closed the connection") from None
            view = view[n:]

    def try_send(self, data):
        """Sends what the socket takes without blocking; returns the byte count (0 when the buffers are full)."""
        try:
            return self.sock.send(data)
        except (BlockingIOError, InterruptedError):
            return 0

    def recv_some(self, timeout):
        readable, _, _ = select.select([self.sock], [], [], timeout)
        if not readable:
            return None
        try:
            return self.sock.recv(1 << 20)
        except BlockingIOError:
            return None
        except ConnectionResetError:
            return b""

    def close(self):
        with contextlib.suppress(OSError):
            self.sock.close()


# ---------------------------------------------------------------------------------------------------------------------
# Decoders
# ---------------------------------------------------------------------------------------------------------------------


class LspDecoder:
    """Incremental decoder of Content-Length frames (the server's replies); linear in the bytes fed."""

    def __init__(self):
        self.buf = bytearray()
        self.need = None  # (header end, body length) once a header is complete

    def feed(self, data):
        self.buf += data
        out = []
        while True:
            if self.need is None:
                end = self.buf.find(b"\r\n\r\n")
                if end < 0:
                    return out
                header = bytes(self.buf[:end]).decode("latin-1")
                m = re.search(r"Content-Length:\s*(\d+)", header, re.I)
                if not m:
                    raise AssertionError(f"the server sent a frame without Content-Length: {header!r}")
                self.need = (end + 4, int(m.group(1)))
            start, length = self.need
            if len(self.buf) < start + length:
                return out
            body = bytes(self.buf[start : start + length])
            del self.buf[: start + length]
            self.need = None
            out.append(json.loads(body))


class LineDecoder:
    """Incremental decoder of newline-delimited JSON (MCP's stdio transport)."""

    def __init__(self):
        self.buf = b""

    def feed(self, data):
        self.buf += data
        out = []
        while b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            if line.strip():
                out.append(json.loads(line))
        return out


# ---------------------------------------------------------------------------------------------------------------------
# JSON-RPC clients
# ---------------------------------------------------------------------------------------------------------------------


class Client:
    """A JSON-RPC peer over one channel. Replies are matched by id; notifications are kept in `notifications`."""

    def __init__(self, channel, line_delimited=False):
        self.ch = channel
        self.line_delimited = line_delimited
        self.decoder = LineDecoder() if line_delimited else LspDecoder()
        self.replies = {}  # id (as json text) -> message
        self.notifications = []
        self.eof = False
        self.next_id = 1000
        self.process = None  # the server, to say why a reply never came

    def why(self):
        if self.process is None:
            return ""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.proc.wait(1.0)  # an EOF usually comes just before the exit status
        if not self.process.alive():
            return f" (the server died: {self.process.describe_exit()})"
        return ""

    # -- sending --
    def encode(self, msg):
        if self.line_delimited:
            if isinstance(msg, (dict, list)):
                msg = json.dumps(msg, separators=(",", ":"))
            if isinstance(msg, str):
                msg = msg.encode()
            return msg + b"\n"
        return frame(msg)

    def send_raw(self, data, timeout=10.0):
        self.ch.send(data, timeout)

    def send(self, msg, timeout=10.0):
        self.ch.send(self.encode(msg), timeout)

    def new_id(self):
        self.next_id += 1
        return self.next_id

    def send_request(self, method, params=None, id=None):
        id = self.new_id() if id is None else id
        if isinstance(params, dict) and isinstance(params.get("output"), str):
            note_output(params["output"])
        self.send(request_body(id, method, params))
        return id

    def notify(self, method, params=None):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)

    # -- receiving --
    def pump(self, timeout):
        """Reads what arrives within `timeout`; returns False on EOF."""
        data = self.ch.recv_some(timeout)
        if data is None:
            return True
        if data == b"":
            self.eof = True
            return False
        for msg in self.decoder.feed(data):
            if isinstance(msg, dict) and "id" in msg and "method" not in msg:
                self.replies[json.dumps(msg["id"])] = msg
            else:
                self.notifications.append(msg)
        return True

    def wait_reply(self, id, timeout):
        key = json.dumps(id)
        deadline = Deadline(timeout)
        while key not in self.replies:
            if self.eof:
                raise ServerGone(f"the connection closed before the reply to id {id}{self.why()}")
            if deadline.expired():
                raise ReplyTimeout(f"no reply to id {id} within {timeout:.1f} s{self.why()}")
            self.pump(min(deadline.left(), 0.2))
        return self.replies.pop(key)

    def wait_any(self, ids, timeout):
        """The first reply to any of `ids` (None stands for the null id of an unparseable message)."""
        keys = [json.dumps(i) for i in ids]
        deadline = Deadline(timeout)
        while True:
            for key in keys:
                if key in self.replies:
                    return self.replies.pop(key)
            if self.eof:
                raise ServerGone(f"the connection closed before a reply to any of {ids}{self.why()}")
            if deadline.expired():
                raise ReplyTimeout(f"no reply to any of {ids} within {timeout:.1f} s{self.why()}")
            self.pump(min(deadline.left(), 0.2))

    def wait_eof(self, timeout):
        deadline = Deadline(timeout)
        while not self.eof and not deadline.expired():
            self.pump(min(deadline.left(), 0.2))
        return self.eof

    def request(self, method, params=None, timeout=None):
        timeout = LATENCY_BOUND_S * 5 if timeout is None else timeout
        id = self.send_request(method, params)
        return self.wait_reply(id, timeout)

    def result(self, method, params=None, timeout=None):
        reply = self.request(method, params, timeout)
        if "error" in reply:
            raise AssertionError(f"{method} failed: {reply['error']}")
        return reply["result"]

    def close(self):
        self.ch.close()


def error_code(reply):
    return reply.get("error", {}).get("code") if isinstance(reply, dict) else None


def note_output(path, cwd=None):
    """Registers `path` (relative to the case's working directory unless absolute) as an output the case asked for."""
    if not path or path == "-":
        return
    ASKED_OUTPUTS.add(os.path.normpath(os.path.join(cwd or CASE_WORKDIR[0] or os.getcwd(), path)))


def note_outputs_of_argv(argv, cwd):
    for flag, value in zip(argv, list(argv[1:]) + [None]):
        if value is not None and flag in ("-o", "--output", OPT_TOKEN_FILE):
            note_output(value, cwd)
        elif isinstance(flag, str) and flag.startswith("--output="):
            note_output(flag.split("=", 1)[1], cwd)


def server_preexec(nofile=None):
    """What every spawned binary runs before exec: its descriptor limit, and (as root) the group SERVER_GID."""

    def run():
        if nofile is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
        if ATTRIBUTE_BY_GROUP:
            os.setgroups([])
            os.setgid(SERVER_GID)

    return run


# ---------------------------------------------------------------------------------------------------------------------
# Servers
# ---------------------------------------------------------------------------------------------------------------------

_HELP_CACHE = {}


def binary_supports(subcommand, option):
    """Whether `nsys-ai help SUBCOMMAND` lists `option` (an option of the hardening work may not exist yet)."""
    if subcommand not in _HELP_CACHE:
        out = subprocess.run([BINARY, "help", subcommand], capture_output=True, text=True, timeout=30 * SLOW)
        _HELP_CACHE[subcommand] = out.stdout + out.stderr
    return re.search(r"(^|\s)" + re.escape(option) + r"\b", _HELP_CACHE[subcommand]) is not None


def require_option(test, subcommand, option):
    if not binary_supports(subcommand, option):
        test.fail(f"'nsys-ai {subcommand}' has no {option} option (CONTRACT.md), which this case needs")


class Sandbox:
    """A private home, cache, config, runtime dir and working directory, so that no case sees another's warm cache,
    user skills or token, and the real user's files are never touched."""

    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="nsys-rel-")
        for sub in ("home", "cache", "config", "run", "tmp", "work", "skills"):
            os.makedirs(os.path.join(self.root, sub), mode=0o700)

    def path(self, *parts):
        return os.path.join(self.root, *parts)

    def env(self):
        env = dict(os.environ)
        if SANITIZED:
            # A small quarantine, so that RSS measures what the server keeps rather than what ASan holds back.
            env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS", ""), "quarantine_size_mb=16"]))
        env.update(
            HOME=self.path("home"),
            XDG_CACHE_HOME=self.path("cache"),
            XDG_CONFIG_HOME=self.path("config"),
            XDG_RUNTIME_DIR=self.path("run"),
            TMPDIR=self.path("tmp"),
        )
        return env

    # Where nsys-ai keeps state: what is new here is the server's when files cannot be told apart by group.
    STATE_DIRS = ("home", "cache", "config", "run", "tmp")

    def entries(self):
        """{path: lstat} of everything under the sandbox (links not followed)."""
        out = {}
        for top, dirs, files in os.walk(self.root, followlinks=False):
            for name in dirs + files:
                path = os.path.join(top, name)
                with contextlib.suppress(FileNotFoundError):
                    out[path] = os.lstat(path)
        return out

    def copy(self, src, name=None):
        dst = self.path("work", name or os.path.basename(src))
        shutil.copyfile(src, dst)
        os.chmod(dst, 0o644)
        return dst

    def write_skill(self, doc, folder="skills"):
        path = self.path(folder, doc["name"] + ".skill.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        return path

    def cleanup(self):
        shutil.rmtree(self.root, ignore_errors=True)


class Process:
    """The spawned binary with its stderr in a file (small-stderr checks, sanitizer reports, the startup line)."""

    def __init__(self, sandbox, args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, nofile=None, name="server"):
        self.sandbox = sandbox
        self.args = [BINARY] + list(args)
        self.stderr_path = sandbox.path(f"{name}-{time.monotonic_ns()}.stderr")
        self.stderr_file = open(self.stderr_path, "wb")

        note_outputs_of_argv(self.args, sandbox.path("work"))
        self.proc = subprocess.Popen(
            self.args,
            stdin=stdin,
            stdout=stdout,
            stderr=self.stderr_file,
            env=sandbox.env(),
            cwd=sandbox.path("work"),
            preexec_fn=server_preexec(nofile),
        )
        self.pid = self.proc.pid

    def stderr_text(self):
        with open(self.stderr_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def stderr_size(self):
        return os.path.getsize(self.stderr_path)

    def alive(self):
        return self.proc.poll() is None

    def describe_exit(self):
        code = self.proc.poll()
        if code is None:
            return "still running"
        tail = self.stderr_text()[-2000:]
        how = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
        return f"{how}; stderr tail:\n{tail}"

    def terminate(self, sig=signal.SIGTERM, timeout=None):
        """Sends `sig` and waits; returns the exit code (negative: killed by a signal), or None after a SIGKILL."""
        timeout = 10 * SLOW if timeout is None else timeout
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                return None
        return self.proc.returncode

    def kill(self):
        for client in getattr(self, "clients", []):
            client.close()
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout):
            if f:
                with contextlib.suppress(OSError):
                    f.close()
        self.stderr_file.close()

    def sanitizer_report(self):
        text = self.stderr_text()
        for marker in SANITIZER_MARKERS:
            at = text.find(marker)
            if at >= 0:
                return text[max(0, at - 200) : at + 3000]
        return None


def initialize_params(token=None, options=None):
    init_options = dict(options or {})
    if token is not None:
        init_options[INIT_TOKEN] = token
    params = {"processId": os.getpid(), "clientInfo": {"name": "reliability-suite"}, "capabilities": {}}
    if init_options:
        params["initializationOptions"] = init_options
    return params


class StdioServer(Process):
    """`nsys-ai serve --stdio` with one client on its pipes."""

    def __init__(self, sandbox, extra_args=(), **kw):
        super().__init__(sandbox, ["serve", "--stdio"] + list(extra_args), **kw)
        self.client = Client(PipeChannel(self.proc.stdin, self.proc.stdout))
        self.client.process = self

    def initialize(self, options=None):
        reply = self.client.request("initialize", initialize_params(options=options), timeout=30 * SLOW)
        if "error" in reply:
            raise AssertionError(f"initialize failed: {reply['error']}")
        self.client.notify("initialized", {})
        return reply["result"]

    def probe_client(self):
        return self.client


class McpServer(Process):
    """`nsys-ai mcp` with one client on its pipes (newline-delimited JSON)."""

    def __init__(self, sandbox, extra_args=(), **kw):
        super().__init__(sandbox, ["mcp"] + list(extra_args), name="mcp", **kw)
        self.client = Client(PipeChannel(self.proc.stdin, self.proc.stdout), line_delimited=True)
        self.client.process = self

    def initialize(self):
        reply = self.client.request(
            "initialize",
            {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "reliability-suite"}},
            timeout=30 * SLOW,
        )
        if "error" in reply:
            raise AssertionError(f"MCP initialize failed: {reply['error']}")
        self.client.notify("notifications/initialized")
        return reply["result"]

    def call_tool(self, name, arguments, timeout=None):
        return self.client.request("tools/call", {"name": name, "arguments": arguments}, timeout)


class TcpServer(Process):
    """`nsys-ai serve --listen 127.0.0.1:0`, with the token file in the sandbox when the binary can write one."""

    def __init__(self, sandbox, extra_args=(), token_file=True, **kw):
        args = ["serve", "--listen", f"{HOST}:0"]
        self.token_path = None
        if token_file and binary_supports("serve", OPT_TOKEN_FILE):
            self.token_path = sandbox.path("run", f"token-{time.monotonic_ns()}")
            args += [OPT_TOKEN_FILE, self.token_path]
        super().__init__(sandbox, args + list(extra_args), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, **kw)
        self.port = None
        self.startup_line = None
        self.clients = []
        deadline = Deadline(30 * SLOW)
        while not deadline.expired():
            m = re.search(r"^listening on [^\s]+:(\d+)(.*)$", self.stderr_text(), re.M)
            if m:
                self.port = int(m.group(1))
                self.startup_line = m.group(0)
                break
            if not self.alive():
                raise AssertionError(f"serve --listen did not start: {self.describe_exit()}")
            time.sleep(0.02)
        if self.port is None:
            raise AssertionError("serve --listen printed no 'listening on' line within 30 s")

    def token(self):
        """The token, from the file the server wrote (None when the binary writes none)."""
        path = self.token_path or self.default_token_path()
        if path and os.path.exists(path):
            with open(path) as f:
                return f.read().strip()
        return None

    def default_token_path(self):
        m = re.search(r"\(token in ([^)]+)\)", self.startup_line or "")
        return m.group(1) if m else None

    def connect(self, timeout=5.0):
        sock = socket.create_connection((HOST, self.port), timeout=timeout)
        client = Client(SocketChannel(sock))
        client.process = self
        self.clients.append(client)
        return client

    def connect_initialized(self, options=None, timeout=None):
        client = self.connect()
        reply = client.request("initialize", initialize_params(self.token(), options), timeout or 30 * SLOW)
        if "error" in reply:
            raise AssertionError(f"initialize over TCP failed: {reply['error']}")
        client.notify("initialized", {})
        return client


# ---------------------------------------------------------------------------------------------------------------------
# Health: the three assertions every case ends with
# ---------------------------------------------------------------------------------------------------------------------


def probe_latency(client, bound=None):
    """Seconds nsys/listSkills took on `client`; fails when it exceeds the bound."""
    bound = LATENCY_BOUND_S if bound is None else bound
    started = time.monotonic()
    reply = client.request("nsys/listSkills", timeout=bound)
    took = time.monotonic() - started
    if "result" not in reply or not reply["result"].get("skills"):
        raise AssertionError(f"nsys/listSkills did not answer with skills: {reply}")
    return took


class Fixtures:
    """sha256 of files before a case; `check()` asserts every one is unchanged."""

    def __init__(self, *paths):
        self.before = {p: sha256_of(p) for p in paths}

    def add(self, path):
        self.before[path] = sha256_of(path)

    def check(self, test):
        for path, digest in self.before.items():
            test.assertTrue(os.path.exists(path), f"{path} disappeared")
            test.assertEqual(sha256_of(path), digest, f"{path} changed")


class CaseTimeout(Exception):
    pass


class ReliabilityCase(unittest.TestCase):
    """Base of every case: a sandbox, a watchdog, and the health assertions."""

    maxDiff = 4000

    def setUp(self):
        if not BINARY or not os.access(BINARY, os.X_OK):
            self.fail(f"NSYS_AI_BINARY is not an executable: {BINARY!r}")
        self.sandbox = Sandbox()
        self.processes = []
        ASKED_OUTPUTS.clear()
        CASE_WORKDIR[0] = self.sandbox.path("work")
        self.private_files_checked = True
        self.sigterm_checked = True
        self.sandbox_before = set(self.sandbox.entries())
        self.fixtures = Fixtures(SHIPPED_PROFILE)
        if small_fixture() != SHIPPED_PROFILE:
            self.fixtures.add(small_fixture())
        self.started = time.monotonic()

        def on_alarm(signum, frame):
            raise CaseTimeout(f"case exceeded its {CASE_TIMEOUT_S:.0f} s watchdog")

        signal.signal(signal.SIGALRM, on_alarm)
        signal.alarm(int(CASE_TIMEOUT_S))

    def tearDown(self):
        signal.alarm(0)
        reports = []
        late = []
        for p in self.processes:
            # The suite's second end-of-case check: a server still running ends within the bound of SIGTERM.
            if self.sigterm_checked and isinstance(p, (StdioServer, TcpServer, McpServer)) and p.proc.poll() is None:
                started = time.monotonic()
                code = p.terminate(signal.SIGTERM, timeout=SIGTERM_EXIT_BOUND_S)
                took = time.monotonic() - started
                if code is None or took > SIGTERM_EXIT_BOUND_S:
                    late.append(f"{' '.join(p.args[1:3])}: {'no exit' if code is None else f'exit {code}'} "
                                f"{took:.1f} s after SIGTERM (bound {SIGTERM_EXIT_BOUND_S:.1f} s); stderr tail:\n"
                                f"{p.stderr_text()[-2000:]}")
            p.kill()
            report = p.sanitizer_report()
            if report:
                reports.append(f"{' '.join(p.args[1:3])}: {report}")
        self.fixtures.check(self)
        try:
            if self.private_files_checked:
                self.check_private_files()
        finally:
            self.sandbox.cleanup()
            print(f"  [{self.id().rsplit('.', 1)[-1]}: {time.monotonic() - self.started:.1f} s]", flush=True)
        if reports:
            self.fail("sanitizer report in the server's stderr:\n" + "\n".join(reports))
        if late:
            self.fail("a server did not end on SIGTERM within its bound:\n" + "\n".join(late))

    # -- the files a server left --
    def expect_output(self, path):
        """Declares a file the case asked the server to write (an export target): any mode, any place."""
        note_output(path, self.sandbox.path("work"))

    def server_made(self, path, st):
        """Whether nsys-ai created `path` (see the module's docstring for how that is told)."""
        if ATTRIBUTE_BY_GROUP:
            return st.st_gid == SERVER_GID
        if path in self.sandbox_before:
            return False
        rel = os.path.relpath(path, self.sandbox.root).split(os.sep)
        return rel[0] in Sandbox.STATE_DIRS or (rel[0] == "work" and len(rel) > 1 and rel[1] == ".nsys-ai")

    def nsys_ai_dir(self, path, made):
        """A directory nsys-ai created, or one it keeps state in (made private: ours, 0700), not the sandbox's own."""
        if path in made:
            return True
        if path == self.sandbox.root or os.path.dirname(path) == self.sandbox.root:
            return False  # HOME, XDG_*, TMPDIR, the working directory themselves
        with contextlib.suppress(FileNotFoundError):
            st = os.lstat(path)
            return os.path.isdir(path) and not os.path.islink(path) and st.st_uid == os.geteuid() and \
                (st.st_mode & 0o7777) == 0o700
        return False

    def check_private_files(self):
        """Fails when nsys-ai left a directory that is not ours and 0700, a file that is not ours and 0600, or
        anything outside its own directories that the case did not ask for (the suite's third end-of-case check)."""
        import stat as st_mod

        entries = self.sandbox.entries()
        made = {p: st for p, st in entries.items() if self.server_made(p, st)}
        problems = []
        for path, st in sorted(made.items()):
            rel = os.path.relpath(path, self.sandbox.root)
            mode = st.st_mode & 0o7777
            if path in ASKED_OUTPUTS:
                continue
            if st.st_uid != os.geteuid():
                problems.append(f"{rel}: owned by uid {st.st_uid}, not ours")
            if st_mod.S_ISDIR(st.st_mode):
                if mode != 0o700:
                    problems.append(f"{rel}/: a directory nsys-ai created with mode {mode:04o}, not 0700")
            elif st_mod.S_ISREG(st.st_mode):
                if mode != 0o600:
                    problems.append(f"{rel}: a file nsys-ai created with mode {mode:04o}, not 0600")
            elif st_mod.S_ISSOCK(st.st_mode):
                if mode & 0o077:
                    problems.append(f"{rel}: a socket nsys-ai created with mode {mode:04o} (others may connect)")
            else:
                problems.append(f"{rel}: nsys-ai created a {st_mod.filemode(st.st_mode)[0]!r} entry (not a file, "
                                "directory or socket)")
            parent = os.path.dirname(path)
            if not st_mod.S_ISDIR(st.st_mode) and not self.nsys_ai_dir(parent, made):
                problems.append(f"{rel}: written outside nsys-ai's own directories, and not an output the case "
                                "asked for")
        if problems:
            self.fail("files nsys-ai left in the sandbox (its state must live in 0700 directories of its own, its "
                      "files 0600):\n  " + "\n  ".join(problems[:40]))

    # -- spawning --
    def stdio_server(self, extra_args=(), initialize=True, options=None, **kw):
        server = StdioServer(self.sandbox, extra_args, **kw)
        self.processes.append(server)
        if initialize:
            server.initialize(options)
        return server

    def tcp_server(self, extra_args=(), **kw):
        server = TcpServer(self.sandbox, extra_args, **kw)
        self.processes.append(server)
        return server

    def mcp_server(self, extra_args=(), initialize=True, **kw):
        server = McpServer(self.sandbox, extra_args, **kw)
        self.processes.append(server)
        if initialize:
            server.initialize()
        return server

    def cli(self, args, timeout):
        """Runs `nsys-ai ARGS` in the sandbox; returns (exit code or None on timeout, stdout, stderr, seconds)."""
        started = time.monotonic()
        note_outputs_of_argv(list(args), self.sandbox.path("work"))
        proc = subprocess.Popen(
            [BINARY] + list(args),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=self.sandbox.env(),
            cwd=self.sandbox.path("work"),
            preexec_fn=server_preexec(),
        )
        try:
            out, err = proc.communicate(timeout=timeout)
            code = proc.returncode
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            code = None
        text_err = err.decode("utf-8", "replace")
        for marker in SANITIZER_MARKERS:
            if marker in text_err:
                self.fail(f"sanitizer report from nsys-ai {' '.join(args)}:\n{text_err[-3000:]}")
        return code, out.decode("utf-8", "replace"), text_err, time.monotonic() - started

    # -- health --
    def assert_alive(self, server):
        if not server.alive():
            self.fail(f"the server died: {server.describe_exit()}")

    def assert_rss(self, server, bound_mb=None):
        bound_mb = RSS_BOUND_MB if bound_mb is None else bound_mb
        rss = rss_mb(server.pid)
        self.assertIsNotNone(rss, f"the server is gone: {server.describe_exit()}")
        self.assertLess(rss, bound_mb, f"server RSS {rss:.0f} MiB exceeds the bound of {bound_mb:.0f} MiB")
        return rss

    def assert_healthy(self, server, client=None, rss_bound_mb=None):
        """The server is alive, a fresh (TCP) or the given client gets nsys/listSkills within the latency bound, its
        RSS is under the bound, and every fixture is unchanged."""
        self.assert_alive(server)
        if client is None:
            if isinstance(server, TcpServer):
                client = server.connect_initialized()
                try:
                    took = probe_latency(client)
                finally:
                    client.close()
            else:
                took = probe_latency(server.client)
        else:
            took = probe_latency(client)
        self.assertLess(took, LATENCY_BOUND_S, f"nsys/listSkills took {took:.2f} s")
        self.assert_rss(server, rss_bound_mb)
        self.fixtures.check(self)
        return took

    def watched_request(self, server, method, params, bound_s, rss_bound_mb=None):
        """A request on the server's client, sampling the server's RSS while it runs (a transient peak is what takes
        a machine down). Fails when the reply takes over `bound_s` or the RSS passes the bound; returns the reply."""
        rss_bound_mb = RSS_BOUND_MB if rss_bound_mb is None else rss_bound_mb
        client = server.client
        id = client.send_request(method, params)
        started, peak = time.monotonic(), 0.0
        while True:
            peak = max(peak, rss_mb(server.pid) or 0.0)
            self.assertLess(peak, rss_bound_mb, f"{method}: the server's RSS reached {peak:.0f} MiB")
            try:
                return client.wait_reply(id, 0.05)
            except ReplyTimeout:
                self.assert_alive(server)
                took = time.monotonic() - started
                self.assertLess(took, bound_s, f"{method} {json.dumps(params)[:200]} did not answer within {bound_s:.0f} s")

    def assert_error(self, reply, codes, contains=None):
        if isinstance(codes, int):
            codes = (codes,)
        if "error" not in reply:
            self.fail(f"expected an error {codes}, got {json.dumps(reply)[:500]}")
        self.assertIn(reply["error"]["code"], codes, f"error code: {reply['error']}")
        if contains:
            for text in [contains] if isinstance(contains, str) else contains:
                self.assertIn(text.lower(), reply["error"]["message"].lower(), f"error message: {reply['error']}")


# ---------------------------------------------------------------------------------------------------------------------
# Fixture makers
# ---------------------------------------------------------------------------------------------------------------------


def sqlite_page_size(path):
    with open(path, "rb") as f:
        header = f.read(100)
    size = int.from_bytes(header[16:18], "big")
    return 65536 if size == 1 else size


def edit_sqlite(path, *statements):
    """Runs statements on a copy (never on a fixture) with Python's sqlite3 module."""
    conn = sqlite3.connect(path)
    try:
        for sql in statements:
            conn.execute(sql)
        conn.commit()
    finally:
        conn.close()
