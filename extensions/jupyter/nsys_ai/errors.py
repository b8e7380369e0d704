"""The exceptions of nsys_ai: one class per JSON-RPC error code of the server (docs/protocol.md, Errors), and a few
more precise ones for the mistakes a notebook user makes most (a missing profile, an unknown skill, a bad argument).
Every message is the server's own sentence, meant to be shown as it is."""


class NsysAiError(Exception):
    """Any error of nsys_ai. `code` is the server's JSON-RPC error code (None when no server answered)."""

    code = None

    def __init__(self, message, code=None, method=None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.method = method


class ServerNotFoundError(NsysAiError, FileNotFoundError):
    """No nsys-ai binary: neither the setting, $NSYS_AI_BIN nor PATH names one."""


class ServerExitedError(NsysAiError):
    """The server process ended while a request was waiting (its last stderr lines are in the message)."""


class InvalidParamsError(NsysAiError, ValueError):
    """-32602: params that do not fit (a bad argument or window, an unknown profile id, a refused path)."""

    code = -32602


class ProfileNotFoundError(InvalidParamsError, FileNotFoundError):
    """-32602 on open: the profile file does not exist."""


class UnknownSkillError(InvalidParamsError, LookupError):
    """-32602 on a skill: no skill has that name (the message lists the known ones)."""


class InvalidArgumentError(InvalidParamsError):
    """-32602 on a skill: an argument the skill does not take, or a value of the wrong type or outside its bounds."""


class RequestFailedError(NsysAiError):
    """-32803: the request was valid but the input is not usable (not an export, data absent), or a limit was hit."""

    code = -32803


class CancelledError(NsysAiError):
    """-32800: the request was cancelled."""

    code = -32800


class MethodNotFoundError(NsysAiError):
    """-32601: this server does not know the method (an older nsys-ai binary)."""

    code = -32601


class InternalError(NsysAiError):
    """-32603: a bug in the server; the message says what failed."""

    code = -32603


_BY_CODE = {
    -32602: InvalidParamsError,
    -32803: RequestFailedError,
    -32800: CancelledError,
    -32601: MethodNotFoundError,
    -32603: InternalError,
}


def from_rpc(error, method):
    """The exception for a JSON-RPC error object {code, message} answered to `method`."""
    code = error.get("code")
    message = str(error.get("message", "")) or "the server answered error %s" % code
    cls = _BY_CODE.get(code, NsysAiError)
    if code == -32602:
        lowered = message.lower()
        if method in ("nsys/openProfile", "nsys/openJob") and (
            "no such file" in lowered or "does not exist" in lowered or "not found" in lowered
        ):
            cls = ProfileNotFoundError
        elif lowered.startswith("unknown skill"):
            cls = UnknownSkillError
        elif method in ("nsys/runSkill", "nsys/runSkillOnJob") and "argument" in lowered:
            cls = InvalidArgumentError
    return cls(message, code=code, method=method)
