"""nsys_ai: Nsight Systems profiles in Jupyter, a thin client of `nsys-ai serve --stdio`.

    import nsys_ai
    p = nsys_ai.open("run.sqlite")        # the profile view: summary, time budget per GPU, top kernels, findings
    p.skill("top_kernels", limit=20)      # a pandas DataFrame (notes in .attrs)
    p.analyze()                           # findings as Markdown, each with its evidence table
    p.ask("which kernel takes the most GPU time?")   # streamed into the cell
    p.explain("flash_fwd_kernel")
    p.perfetto(start=0.2, end=0.6)        # the timeline in Perfetto, through the notebook (no port)
    nsys_ai.diff("before.sqlite", "after.sqlite")
    job = nsys_ai.open_job("ranks/")      # the job report and the ranks x steps heat map (a multi-process job)

Every number comes from the server; this package only asks and shows. The server binary: nsys_ai.configure(binary=),
else $NSYS_AI_BIN, else `nsys-ai` on PATH. One server per kernel, stopped when the kernel stops.
"""

import os as _os
import weakref as _weakref

from . import client as _client
from . import frames as _frames
from . import html as _html
from . import perfetto as _perfetto
from .errors import (CancelledError, InvalidArgumentError, InvalidParamsError, MethodNotFoundError, NsysAiError,
                     ProfileNotFoundError, RequestFailedError, ServerExitedError, ServerNotFoundError,
                     UnknownSkillError)

__version__ = "0.1.0"
__all__ = ["open", "diff", "open_job", "open_run", "configure", "server", "shutdown", "skills", "Profile", "Job",
           "Run", "NsysAiError", "ServerNotFoundError", "ServerExitedError", "InvalidParamsError",
           "ProfileNotFoundError", "UnknownSkillError", "InvalidArgumentError", "RequestFailedError", "CancelledError",
           "MethodNotFoundError"]

server = _client.server
shutdown = _client.shutdown


def configure(binary=None, perfetto_origin=None, server_args=None):
    """Settings for the next server started: the nsys-ai binary (before $NSYS_AI_BIN and PATH), the Perfetto UI's
    origin (default https://ui.perfetto.dev), extra `serve` arguments. Call nsys_ai.shutdown() to apply them to a
    running server."""
    if binary is not None:
        _client.settings["binary"] = str(binary)
    if perfetto_origin is not None:
        _client.settings["perfetto_origin"] = str(perfetto_origin)
    if server_args is not None:
        _client.settings["server_args"] = [str(a) for a in server_args]


def _path(path):
    return _os.fspath(path)


def _window(start, end, clock):
    window = {}
    if start is not None:
        window["start"] = start
    if end is not None:
        window["end"] = end
    if window and clock is not None:
        window["clock"] = clock
    return window or None


def _in_ipython():
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    return get_ipython() is not None


class _Markdown:
    """A server's Markdown (an analysis, an explanation, a diff), shown as Markdown; the whole result in .result."""

    def __init__(self, result, markdown):
        self.result = result
        self.markdown = markdown

    def __getitem__(self, key):
        return self.result[key]

    def _repr_markdown_(self):
        return self.markdown

    def __str__(self):
        return self.markdown


class Analysis(_Markdown):
    """nsys/analyze: `.findings` (the server's list), `.frame()` one row per finding, `.evidence(i)` its tables."""

    @property
    def findings(self):
        return self.result.get("findings") or []

    def frame(self):
        return _frames.records_frame([{k: f.get(k) for k in ("rootCause", "severity", "atStakeNs", "title", "skill")}
                                      for f in self.findings],
                                     ["rootCause", "severity", "atStakeNs", "title", "skill"])

    def evidence(self, index):
        answer = self.findings[index].get("answer") or {}
        return [_frames.to_frame(e, e.get("call")) for e in answer.get("evidence") or []]


class Answer(_Markdown):
    """nsys/ask's answer (already streamed into the cell when shown): `.summary`, `.evidence` as DataFrames."""

    shown = False

    @property
    def summary(self):
        return (self.result.get("answer") or {}).get("summary", "")

    @property
    def conversation_id(self):
        return self.result.get("conversationId")

    @property
    def evidence(self):
        return [_frames.to_frame(e, e.get("call")) for e in (self.result.get("answer") or {}).get("evidence") or []]

    def _ipython_display_(self):
        if not self.shown:
            from IPython.display import display, Markdown
            display(Markdown(self.markdown))
            self.shown = True


class Diff(_Markdown):
    """nsys/diff: `.verdict`, `.kernels` and `.ranges` as DataFrames (the server's rows)."""

    @property
    def verdict(self):
        return self.result.get("verdict")

    @property
    def kernels(self):
        return _frames.records_frame(self.result.get("kernels") or [])

    @property
    def ranges(self):
        return _frames.records_frame(self.result.get("ranges") or [])


class Profile:
    """An open profile on this kernel's server. Shown as the profile view."""

    def __init__(self, path, no_cache=None, _server=None):
        self._server = _server or _client.server()
        params = {"path": _path(path)}
        if no_cache is not None:
            params["noCache"] = bool(no_cache)
        opened = self._server.request("nsys/openProfile", params)
        self.id = opened["profileId"]
        self.path = opened["path"]
        self.info = opened["info"]
        # A collected Profile closes its id (the server holds at most 256 ids, 8 loaded files).
        self._closer = _weakref.finalize(self, self._server.defer, "nsys/closeProfile", {"profileId": self.id})
        self._closer.atexit = False
        self._conversation = None
        self._view = None

    def __repr__(self):
        return "<nsys_ai.Profile %s %s>" % (self.id, self.path)

    def close(self):
        self._closer.detach()
        self._server.request("nsys/closeProfile", {"profileId": self.id})

    def skill(self, name, filter=None, **args):
        """Run a skill: a DataFrame with typed columns; notes, declined, column descriptions in .attrs."""
        params = {"profileId": self.id, "skill": name, "args": {k: v for k, v in args.items() if v is not None}}
        if filter:
            params["filter"] = filter
        return _frames.to_frame(self._server.request("nsys/runSkill", params), {"skill": name, "args": params["args"]})

    def analyze(self, start=None, end=None, clock=None):
        params = {"profileId": self.id}
        window = _window(start, end, clock)
        if window:
            params["window"] = window
        result = self._server.request("nsys/analyze", params)
        return Analysis(result, result.get("markdown", ""))

    def ask(self, question, new_conversation=False):
        """Ask in plain words; the answer's Markdown streams into the cell. Follow-ups continue the conversation."""
        params = {"profileId": self.id, "question": question}
        if self._conversation and not new_conversation:
            params["conversationId"] = self._conversation
        handle, text = None, []
        if _in_ipython():
            from IPython.display import HTML, display, Markdown
            handle = display(Markdown("*Asking\u2026*"), display_id=True)

        def on_progress(value):
            # The model's words as they stream are shown as escaped plain text: a running session renders Markdown
            # as trusted HTML, and only the final answer (the server's Markdown, made inert there) is Markdown.
            if isinstance(value, dict) and isinstance(value.get("text"), str):
                text.append(value["text"])
                if handle is not None:
                    handle.update(HTML('<pre class="nsys-ai-streaming" style="white-space: pre-wrap">%s</pre>'
                                       % _html.esc("".join(text))))

        try:
            result = self._server.request("nsys/ask", params, on_progress=on_progress)
        except BaseException as error:  # the placeholder says what happened; the exception goes on
            if handle is not None:
                handle.update(Markdown("*Not answered: %s*" % ("interrupted" if isinstance(error, KeyboardInterrupt)
                                                                 else _html.esc(error))))
            raise
        self._conversation = result.get("conversationId")
        answer = Answer(result, (result.get("answer") or {}).get("markdown", ""))
        answer.streamed = "".join(text)
        if handle is not None:
            handle.update(Markdown(answer.markdown))
            answer.shown = True
        return answer

    def explain(self, kernel):
        result = self._server.request("nsys/explainKernel", {"profileId": self.id, "kernel": kernel})
        return _Markdown(result, result.get("markdown", ""))

    def perfetto(self, start=None, end=None, clock=None, transport="auto"):
        """Open the timeline (optionally a window, seconds from the profile start) in Perfetto from this browser tab.
        transport: "comm", "output" or "auto" (see nsys_ai.perfetto). Over nsys_ai.perfetto.INLINE_TRACE_LIMIT
        (32 MiB): the loopback link."""
        window = _window(start, end, clock)
        title = _os.path.basename(self.path)
        if window:
            title += " [%s, %s]" % (window.get("start", ""), window.get("end", ""))
        return _perfetto.show(self._server, self.id, window, title, transport)

    def view_html(self):
        """The profile view's HTML: info, time_budget, top_kernels (10) and analyze, all from the server."""
        if self._view is None:
            budget = self.skill_result("time_budget")
            kernels = self.skill_result("top_kernels", limit=10)
            try:
                analysis = self._server.request("nsys/analyze", {"profileId": self.id})
            except MethodNotFoundError:
                analysis = None
            except (InvalidParamsError, RequestFailedError) as error:
                analysis = {"findings": [], "summary": "No analysis: %s" % error}
            self._view = _html.profile_view(self.info, budget, kernels, analysis, "")
        return self._view + _perfetto.hello_script()

    def skill_result(self, name, **args):
        """A skill's raw result (the server's JSON), or a declined-shaped result naming why it failed."""
        try:
            return self._server.request("nsys/runSkill", {"profileId": self.id, "skill": name, "args": args})
        except (InvalidParamsError, RequestFailedError) as error:
            return {"declined": True, "notes": [str(error)], "columns": [], "rows": []}

    def _repr_html_(self):
        return self.view_html()


class Job:
    """The per-rank exports of one multi-process job (nsys/openJob): shown as the job report and the ranks x steps heat
    map."""

    def __init__(self, directory=None, paths=None, _server=None):
        self._server = _server or _client.server()
        params = {"paths": [_path(p) for p in paths]} if paths is not None else {"directory": _path(directory)}
        opened = self._server.request("nsys/openJob", params)
        self.id = opened["jobId"]
        self.ranks_opened = opened["ranks"]
        self._report = None
        self._closer = _weakref.finalize(self, self._server.defer, "nsys/closeJob", {"jobId": self.id})
        self._closer.atexit = False

    def __repr__(self):
        return "<nsys_ai.Job %s, %d ranks>" % (self.id, len(self.ranks_opened))

    def close(self):
        self._closer.detach()
        self._server.request("nsys/closeJob", {"jobId": self.id})

    @property
    def report(self):
        if self._report is None:
            self._report = self._server.request("nsys/jobReport", {"jobId": self.id})
        return self._report

    @property
    def ranks(self):
        return _frames.records_frame(self.report.get("ranks") or [])

    def analysis(self, skill):
        """One of the report's job skills (job_step_heatmap, job_stragglers, ...) as a DataFrame."""
        for entry in self.report.get("analyses") or []:
            if entry.get("skill") == skill:
                return _frames.to_frame(entry.get("result") or {}, {"skill": skill})
        raise UnknownSkillError("The job report has no %r analysis (it has: %s)." % (
            skill, ", ".join(e.get("skill", "") for e in self.report.get("analyses") or [])), code=-32602)

    def skill(self, name, filter=None, **args):
        params = {"jobId": self.id, "skill": name, "args": {k: v for k, v in args.items() if v is not None}}
        if filter:
            params["filter"] = filter
        return _frames.to_frame(self._server.request("nsys/runSkillOnJob", params),
                                {"skill": name, "args": params["args"]})

    def analyze(self, ranks_per_node=None):
        params = {"jobId": self.id}
        if ranks_per_node is not None:
            params["ranksPerNode"] = ranks_per_node
        result = self._server.request("nsys/analyzeJob", params)
        return Analysis(result, result.get("markdown", ""))

    def _repr_html_(self):
        report = self.report
        keys = ["rank", "kernels", "gpuTimeNs", "ncclKernels", "ncclTimeNs", "stepTimeNs", "steps"]
        rows = [[r.get(k) for k in keys] for r in report.get("ranks") or []]
        heat = next((e.get("result") for e in report.get("analyses") or [] if e.get("skill") == "job_step_heatmap"),
                    None)
        return ('%s<div class="nsys-ai nsys-ai-job"><h2>Job %s: %d ranks</h2>%s%s<h3>Ranks \u00d7 steps</h3>%s</div>%s'
                % (_html.STYLE, _html.esc(self.id), len(rows),
                   _html.table(["rank", "kernels", "gpu_time_ns", "nccl_kernels", "nccl_time_ns", "step_time_ns",
                                "steps"], rows), _html.notes(report.get("notes")), _html.heat_map(heat),
                   _perfetto.hello_script()))


def open(path, no_cache=None):  # noqa: A001  (nsys_ai.open is the package's front door)
    """Open a profile (.sqlite export, or a .nsys-rep/.qdrep report) on this kernel's server."""
    return Profile(path, no_cache=no_cache)


def open_job(directory=None, paths=None):
    """Open a multi-process job: every rank export in `directory`, or the files in `paths`."""
    return Job(directory=directory, paths=paths)


# The old names, from when the multi-rank noun was "run": the same class and function.
Run = Job
open_run = open_job


def diff(before, after, metric=None, max_rows=None):
    """Compare two profiles (paths or open Profiles): the server's verdict and report."""
    base = before if isinstance(before, Profile) else Profile(before)
    new = after if isinstance(after, Profile) else Profile(after, _server=base._server)
    params = {"baseProfileId": base.id, "newProfileId": new.id}
    if metric is not None:
        params["metric"] = metric
    if max_rows is not None:
        params["maxRows"] = max_rows
    result = base._server.request("nsys/diff", params)
    return Diff(result, result.get("markdown", ""))


def skills():
    """Every skill the server has, with its arguments (nsys/listSkills) as a DataFrame."""
    listed = _client.server().request("nsys/listSkills", {})
    return _frames.records_frame([{"name": s["name"], "reference": s.get("reference", ""),
                                   "description": s.get("description", ""),
                                   "args": ", ".join(a["name"] for a in s.get("args") or [])}
                                  for s in listed.get("skills") or []])
