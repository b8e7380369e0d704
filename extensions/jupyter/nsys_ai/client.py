"""The JSON-RPC 2.0 client of `nsys-ai serve --stdio` (LSP base framing), standard library only.

One server process per Python process (a notebook kernel): started on first use, shut down (`shutdown`, `exit`) at
interpreter exit or when the Server object is collected (weakref.finalize, which also runs at exit). The server runs
in its own session, so a kernel interrupt (Jupyter sends SIGINT to the kernel's whole process group) reaches only the
kernel: the request being waited for is cancelled with `$/cancelRequest` and the server keeps serving. If the kernel
dies without running its exit handlers, the server sees its stdin end and exits by itself.
"""

import collections
import json
import os
import queue
import shutil
import subprocess
import threading
import time
import weakref

from . import errors

# Where the binary comes from, in order (as the editors find it): this setting, $NSYS_AI_BIN, then PATH.
settings = {"binary": None, "perfetto_origin": None, "server_args": []}

# How long a cancelled request may take to answer -32800 before the client stops waiting for it (the server answers
# within 2 s of a cancel; docs/protocol.md, Cancellation).
CANCEL_WAIT_SECONDS = 5.0


_FIX = ("Build it (cmake -S . -B build && cmake --build build) and either call "
        "nsys_ai.configure(binary='/path/to/build/nsys-ai'), set NSYS_AI_BIN=/path/to/nsys-ai in the kernel's "
        "environment, or put nsys-ai on PATH.")


def find_binary():
    """The nsys-ai executable, as the editors find it: settings['binary'], else $NSYS_AI_BIN, else `nsys-ai` on PATH.
    The first of them that is given decides: a setting naming a file that is missing fails, saying so and how to fix
    it, rather than silently starting another binary. A bare name is looked up on PATH."""
    for source, wanted in (("nsys_ai.configure(binary=...)", settings.get("binary")),
                           ("$NSYS_AI_BIN", os.environ.get("NSYS_AI_BIN"))):
        if not wanted:
            continue
        wanted = os.path.expanduser(str(wanted))
        if os.sep not in wanted:
            found = shutil.which(wanted)
            if found:
                return found
            raise errors.ServerNotFoundError("The nsys-ai server %r (%s) was not found on PATH. %s" % (
                wanted, source, _FIX))
        if os.path.isfile(wanted) and os.access(wanted, os.X_OK):
            return wanted
        why = "is not an executable file" if os.path.exists(wanted) else "does not exist"
        raise errors.ServerNotFoundError("The nsys-ai server %r (%s) %s. %s" % (wanted, source, why, _FIX))
    found = shutil.which("nsys-ai")
    if found:
        return found
    raise errors.ServerNotFoundError("The nsys-ai server was not found: no nsys_ai.configure(binary=...), no "
                                     "$NSYS_AI_BIN, and no nsys-ai on PATH. " + _FIX)


def _write_frame(pipe, lock, message):
    body = json.dumps(message, separators=(",", ":")).encode("utf-8")
    with lock:
        pipe.write(b"Content-Length: %d\r\n\r\n" % len(body))
        pipe.write(body)
        pipe.flush()


def _read_frame(pipe):
    """One message body, or None at the end of the stream."""
    length = None
    while True:
        line = pipe.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            if length is None:
                continue
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    body = b""
    while len(body) < length:
        part = pipe.read(length - len(body))
        if not part:
            return None
        body += part
    return json.loads(body.decode("utf-8"))


def _stop_process(proc, stdin_lock):
    """Shut the server down politely (shutdown, exit), then by signal if it does not go within 2 s."""
    if proc.poll() is not None:
        return
    try:
        _write_frame(proc.stdin, stdin_lock, {"jsonrpc": "2.0", "id": "shutdown", "method": "shutdown"})
        _write_frame(proc.stdin, stdin_lock, {"jsonrpc": "2.0", "method": "exit"})
        proc.stdin.close()
    except (OSError, ValueError):
        pass
    try:
        proc.wait(timeout=2)
    except subprocess.TimeoutExpired:
        proc.terminate()
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class Server:
    """One `nsys-ai serve --stdio` process and its session."""

    def __init__(self, binary=None, extra_args=None, init_options=None):
        self.binary = binary or find_binary()
        args = [self.binary, "serve", "--stdio"] + list(extra_args or settings.get("server_args") or [])
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     start_new_session=True)
        self.pid = self.proc.pid
        self._stdin_lock = threading.Lock()
        self._lock = threading.Lock()
        self._next_id = 0
        self._pending = {}  # id -> queue of ("response", msg) / ("progress", value)
        self._tokens = {}  # partial-result token -> queue
        self._stderr_tail = []
        self.cancelled = []  # (id, code) of the requests cancelled by an interrupt, as the server answered them
        self._deferred = collections.deque()  # (method, params) sent, unanswered, before the next request
        self.log = []  # the last window/logMessage texts
        threading.Thread(target=self._read_loop, name="nsys-ai-reader", daemon=True).start()
        threading.Thread(target=self._stderr_loop, name="nsys-ai-stderr", daemon=True).start()
        self._finalizer = weakref.finalize(self, _stop_process, self.proc, self._stdin_lock)
        options = {}
        if settings.get("perfetto_origin"):
            options["perfettoOrigin"] = settings["perfetto_origin"]
        options.update(init_options or {})
        self.capabilities = self.request("initialize", {
            "processId": os.getpid(), "clientInfo": {"name": "nsys-ai-jupyter", "version": "0.1.0"},
            "capabilities": {}, "initializationOptions": options})
        self.notify("initialized", {})

    # -- lifetime ------------------------------------------------------------------------------------------------
    def alive(self):
        return self.proc.poll() is None

    def close(self):
        """Shut the server down (shutdown + exit) and wait for it."""
        self._finalizer()

    # -- messages ------------------------------------------------------------------------------------------------
    def _read_loop(self):
        while True:
            try:
                message = _read_frame(self.proc.stdout)
            except (OSError, ValueError):
                message = None
            if message is None:
                break
            if "method" not in message:
                with self._lock:
                    q = self._pending.get(message.get("id"))
                if q is not None:
                    q.put(("response", message))
                continue
            method = message["method"]
            if method == "$/progress":
                params = message.get("params") or {}
                with self._lock:
                    q = self._tokens.get(params.get("token"))
                if q is not None:
                    q.put(("progress", params.get("value")))
            elif method == "window/logMessage":
                self.log = (self.log + [str((message.get("params") or {}).get("message", ""))])[-50:]
            elif "id" in message:  # a request to the client (we announce no capability, so none is expected)
                try:
                    _write_frame(self.proc.stdin, self._stdin_lock,
                                 {"jsonrpc": "2.0", "id": message["id"], "result": None})
                except (OSError, ValueError):
                    pass
        self.proc.stdout.close()
        with self._lock:
            waiting = list(self._pending.values())
        for q in waiting:
            q.put(("exit", None))

    def _stderr_loop(self):
        for line in iter(self.proc.stderr.readline, b""):
            self._stderr_tail = (self._stderr_tail + [line.decode("utf-8", "replace").rstrip()])[-20:]
        self.proc.stderr.close()

    def defer(self, method, params):
        """Send a request before the next one and drop its answer: for finalizers (a collected Profile closes its
        id), which may run inside another request's write and so must not write themselves."""
        self._deferred.append((method, params))

    def _send_deferred(self):
        while self._deferred:
            method, params = self._deferred.popleft()
            with self._lock:
                self._next_id += 1
                rid = "deferred-%d" % self._next_id
            _write_frame(self.proc.stdin, self._stdin_lock,
                         {"jsonrpc": "2.0", "id": rid, "method": method, "params": params})

    def notify(self, method, params):
        _write_frame(self.proc.stdin, self._stdin_lock, {"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params=None, on_progress=None):
        """Send a request and wait for its result. `on_progress(value)` gets the partial results (a
        partialResultToken is added) in this thread. A KeyboardInterrupt while waiting cancels the request on the
        server ($/cancelRequest), waits for its -32800 (at most CANCEL_WAIT_SECONDS), and is raised again; so does
        an exception raised by on_progress."""
        if not self.alive():
            raise errors.ServerExitedError(self._exit_message(), method=method)
        q = queue.Queue()
        with self._lock:
            self._next_id += 1
            rid = self._next_id
            self._pending[rid] = q
            token = None
            if on_progress is not None:
                token = "partial-%d" % rid
                self._tokens[token] = q
        params = dict(params or {})
        if token is not None:
            params["partialResultToken"] = token
        try:
            try:
                self._send_deferred()
                _write_frame(self.proc.stdin, self._stdin_lock,
                             {"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
            except (OSError, ValueError) as error:
                raise errors.ServerExitedError(self._exit_message() + " (%s)" % error, method=method) from None
            try:
                return self._wait(q, method, on_progress)
            except errors.NsysAiError:
                raise
            except BaseException:  # an interrupt, or the progress callback gave up: the server stops the work
                self._cancel(rid, q)
                raise
        finally:
            with self._lock:
                self._pending.pop(rid, None)
                if token is not None:
                    self._tokens.pop(token, None)

    def _wait(self, q, method, on_progress):
        while True:
            try:
                kind, payload = q.get(timeout=0.1)
            except queue.Empty:
                continue
            if kind == "progress":
                if on_progress is not None:
                    on_progress(payload)
                continue
            if kind == "exit":
                raise errors.ServerExitedError(self._exit_message(), method=method)
            if "error" in payload:
                raise errors.from_rpc(payload["error"], method)
            return payload.get("result")

    def _cancel(self, rid, q):
        try:
            self.notify("$/cancelRequest", {"id": rid})
        except (OSError, ValueError):
            return
        deadline = time.monotonic() + CANCEL_WAIT_SECONDS
        while time.monotonic() < deadline:
            try:
                kind, payload = q.get(timeout=0.1)
            except queue.Empty:
                continue
            except KeyboardInterrupt:  # a second interrupt: stop waiting for the answer
                return
            if kind == "exit":
                return
            if kind == "response":
                code = (payload.get("error") or {}).get("code")
                self.cancelled = (self.cancelled + [(rid, code)])[-20:]
                return

    def _exit_message(self):
        code = self.proc.poll()
        tail = "\n".join(self._stderr_tail[-5:])
        return "The nsys-ai server (%s, pid %d) exited with code %s.%s" % (
            self.binary, self.pid, code, ("\nIts last lines:\n" + tail) if tail else "")


_shared = None
_shared_lock = threading.Lock()


def server():
    """This process's server, started on first use (and again if it has exited)."""
    global _shared
    with _shared_lock:
        if _shared is None or not _shared.alive():
            _shared = Server()
        return _shared


def shutdown():
    """Stop this process's server now (the next call starts a new one). Profile objects of it become unusable."""
    global _shared
    with _shared_lock:
        if _shared is not None:
            _shared.close()
            _shared = None
