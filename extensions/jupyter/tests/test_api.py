"""The Python API against the real nsys-ai binary on the shared fixtures: DataFrames equal the skills' JSON
rows, clear exceptions, an interrupt cancels the request and the server keeps serving, Perfetto's bytes equal
`nsys-ai export`'s, one server per process that ends with it."""

import _thread
from html import escape
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import support

try:
    import nsys_ai
except ImportError:  # run from the source tree
    sys.path.insert(0, support.PACKAGE)
    import nsys_ai
from nsys_ai import client, perfetto

import pandas as pd

SKIP = support.skip_reason()


def setUpModule():
    if SKIP:
        raise unittest.SkipTest(SKIP)
    nsys_ai.configure(binary=support.BINARY,
                      server_args=["--skill-dir", support.slow_skill_dir(), "--skill-timeout", "120"])


def tearDownModule():
    nsys_ai.shutdown()


def same_cell(frame_value, json_value):
    if json_value is None:
        return bool(pd.isna(frame_value))
    if pd.isna(frame_value):
        return False
    if isinstance(json_value, bool):
        return bool(frame_value) == json_value
    if isinstance(json_value, float):
        return float(frame_value) == json_value
    if isinstance(json_value, int):
        return int(frame_value) == json_value
    return str(frame_value) == json_value


class FramesTest(unittest.TestCase):
    def assertFrameEqualsRows(self, frame, result, label):
        names = [c["name"] for c in result["columns"]]
        self.assertEqual(list(frame.columns), names, label)
        self.assertEqual(len(frame), len(result["rows"]), label)
        for i, row in enumerate(result["rows"]):
            for j, value in enumerate(row):
                got = frame.iat[i, j]
                self.assertTrue(same_cell(got, value), "%s row %d column %s: %r != %r" % (label, i, names[j], got,
                                                                                            value))
        for j, column in enumerate(result["columns"]):
            dtype = str(frame.dtypes.iloc[j])
            has_null = any(r[j] is None for r in result["rows"])
            expected = {"int": "Int64" if has_null else "int64", "double": "float64", "string": "string",
                        "bool": "boolean" if has_null else "bool"}[column["type"]]
            self.assertEqual(dtype, expected, "%s column %s" % (label, column["name"]))
        self.assertEqual(frame.attrs["notes"], result["notes"], label)
        self.assertEqual(frame.attrs["declined"], result["declined"], label)

    def test_every_skill_frame_equals_its_json_rows(self):
        """Every built-in skill without required arguments, on two fixtures: the DataFrame holds the server's rows,
        typed by its column types."""
        server = nsys_ai.server()
        listed = server.request("nsys/listSkills", {})["skills"]
        checked = 0
        for path in (support.H100, support.BEFORE):
            p = nsys_ai.open(path)
            for skill in listed:
                if skill["name"] == "slow_count" or any(a.get("required") for a in skill.get("args") or []):
                    continue
                try:
                    raw = server.request("nsys/runSkill", {"profileId": p.id, "skill": skill["name"], "args": {}})
                except nsys_ai.RequestFailedError:
                    continue
                self.assertFrameEqualsRows(p.skill(skill["name"]), raw, "%s on %s" % (skill["name"], path))
                checked += 1
        self.assertGreaterEqual(checked, 30)

    def test_frames_equal_the_cli_json(self):
        """The same rows by an independent path: the CLI's --format json in its own process."""
        p = nsys_ai.open(support.H100)
        for name, args, cli_args in (("top_kernels", {}, []), ("time_budget", {}, []),
                                     ("gpu_idle_gaps", {"device": 0}, ["--device", "0", "--trim", "0.2", "0.6"])):
            if name == "gpu_idle_gaps":
                args = dict(args, start=0.2, end=0.6)
            frame = p.skill(name, **args)
            self.assertFrameEqualsRows(frame, support.cli_json("skill", "run", name, support.H100, *cli_args),
                                       name + " vs CLI")
        top = p.skill("top_kernels", limit=3)
        self.assertEqual(len(top), 3)
        self.assertEqual(str(top.dtypes["total_time_ns"]), "int64")
        self.assertEqual(int(top["total_time_ns"].iloc[0]), 31121662)  # sqlite3: the top kernel's summed duration
        self.assertIn("Showing the first 3 of 41 rows.", top.attrs["notes"])


class ErrorsTest(unittest.TestCase):
    def test_missing_profile(self):
        with self.assertRaises(nsys_ai.ProfileNotFoundError) as caught:
            nsys_ai.open("/no/such/profile.sqlite")
        self.assertIsInstance(caught.exception, FileNotFoundError)
        self.assertEqual(caught.exception.code, -32602)
        self.assertIn("/no/such/profile.sqlite", str(caught.exception))

    def test_not_an_export(self):
        with self.assertRaises(nsys_ai.RequestFailedError) as caught:
            nsys_ai.open(os.path.join(support.FIXTURES, "README.md"))
        self.assertIn("is not a SQLite database", str(caught.exception))

    def test_bad_skill_name(self):
        p = nsys_ai.open(support.H100)
        with self.assertRaises(nsys_ai.UnknownSkillError) as caught:
            p.skill("top_kernel")
        self.assertIsInstance(caught.exception, LookupError)
        self.assertIn("unknown skill 'top_kernel'", str(caught.exception))
        self.assertIn("top_kernels", str(caught.exception))  # the known ones are listed

    def test_bad_arguments(self):
        p = nsys_ai.open(support.H100)
        cases = [({"limit": -1}, "Argument 'limit' of skill 'top_kernels' must be at least 0, got -1."),
                 ({"limit": "x"}, "Argument 'limit' of skill 'top_kernels' must be an int"),
                 ({"bogus": 1}, "Unknown argument 'bogus' for skill 'top_kernels'")]
        for args, text in cases:
            with self.assertRaises(nsys_ai.InvalidArgumentError) as caught:
                p.skill("top_kernels", **args)
            self.assertIsInstance(caught.exception, ValueError)
            self.assertIn(text, str(caught.exception))
        with self.assertRaises(nsys_ai.InvalidParamsError):
            p.skill("top_kernels", device=7)
        with self.assertRaises(nsys_ai.InvalidParamsError):
            p.perfetto(transport="carrier-pigeon")

    def test_no_binary_says_how_to_fix_it(self):
        saved_settings, saved_env = dict(client.settings), dict(os.environ)
        empty = tempfile.mkdtemp()
        try:
            client.settings["binary"] = None
            os.environ.pop("NSYS_AI_BIN", None)
            os.environ["PATH"] = empty
            with self.assertRaises(nsys_ai.ServerNotFoundError) as caught:
                client.Server()
            self.assertIsInstance(caught.exception, FileNotFoundError)
            for hint in ("no nsys_ai.configure(binary=...), no $NSYS_AI_BIN, and no nsys-ai on PATH",
                         "nsys_ai.configure(binary='/path/to/build/nsys-ai')", "NSYS_AI_BIN=/path/to/nsys-ai"):
                self.assertIn(hint, str(caught.exception))
            # The first one given decides, and a bad one is named with what is wrong: the setting beats
            # $NSYS_AI_BIN, which beats PATH.
            os.environ["NSYS_AI_BIN"] = "/no/such/nsys-ai"
            with self.assertRaises(nsys_ai.ServerNotFoundError) as caught:
                client.find_binary()
            self.assertIn("'/no/such/nsys-ai' ($NSYS_AI_BIN) does not exist", str(caught.exception))
            os.environ["NSYS_AI_BIN"] = support.FIXTURES + "/README.md"
            with self.assertRaises(nsys_ai.ServerNotFoundError) as caught:
                client.find_binary()
            self.assertIn("README.md' ($NSYS_AI_BIN) is not an executable file", str(caught.exception))
            os.environ["NSYS_AI_BIN"] = support.BINARY
            self.assertEqual(client.find_binary(), support.BINARY)
            client.settings["binary"] = "/no/such/either"
            with self.assertRaises(nsys_ai.ServerNotFoundError) as caught:
                client.find_binary()
            self.assertIn("'/no/such/either' (nsys_ai.configure(binary=...)) does not exist", str(caught.exception))
            client.settings["binary"] = None
            os.environ.pop("NSYS_AI_BIN")
            os.symlink(support.BINARY, os.path.join(empty, "nsys-ai"))
            self.assertEqual(client.find_binary(), os.path.join(empty, "nsys-ai"))  # PATH, last
        finally:
            client.settings.clear()
            client.settings.update(saved_settings)
            os.environ.clear()
            os.environ.update(saved_env)
            shutil.rmtree(empty, ignore_errors=True)


class InterruptTest(unittest.TestCase):
    def test_interrupt_cancels_the_request_and_the_server_keeps_serving(self):
        p = nsys_ai.open(support.H100)
        server = nsys_ai.server()
        timer = threading.Timer(0.5, _thread.interrupt_main)
        started = time.monotonic()
        timer.start()
        with self.assertRaises(KeyboardInterrupt):
            p.skill("slow_count")  # counts for tens of seconds
        elapsed = time.monotonic() - started
        self.assertLess(elapsed, 5.0)
        self.assertEqual(server.cancelled[-1][1], -32800)  # the server answered the cancel, the work stopped
        self.assertIs(nsys_ai.server(), server)
        self.assertTrue(server.alive())
        top = p.skill("top_kernels", limit=1)
        self.assertEqual(int(top["total_time_ns"].iloc[0]), 31121662)


class PerfettoTest(unittest.TestCase):
    def test_trace_bytes_equal_nsys_ai_export(self):
        p = nsys_ai.open(support.H100)
        for start, end in ((0.2, 0.6), (None, None)):
            trace = p.perfetto(start=start, end=end)
            self.assertIsNone(trace.link)
            self.assertEqual(hashlib.sha256(trace.data).hexdigest(), support.export_sha256(support.H100, start, end))
            self.assertEqual(trace.sha256, hashlib.sha256(trace.data).hexdigest())
            self.assertEqual(trace.transport, "output")  # no front end said it has a comm
            scripts = perfetto.chunk_scripts(trace)
            self.assertEqual(len(scripts), -(-len(trace.data) // perfetto.CHUNK_BYTES) + 1)
            html = trace.html()
            self.assertIn("nsysAiPerfetto.init", html)
            self.assertIn('"limit": %d' % perfetto.INLINE_TRACE_LIMIT, html)

    def test_over_the_limit_prints_the_loopback_link_and_why(self):
        p = nsys_ai.open(support.H100)
        saved = perfetto.INLINE_TRACE_LIMIT
        perfetto.INLINE_TRACE_LIMIT = 64 * 1024
        try:
            trace = p.perfetto()
        finally:
            perfetto.INLINE_TRACE_LIMIT = saved
        self.assertIsNotNone(trace.link)
        self.assertTrue(trace.link["url"].startswith("http://127.0.0.1:"))
        self.assertTrue(trace.link["sshHint"].startswith("ssh -L %d:127.0.0.1:%d" % (trace.link["port"],
                                                                                     trace.link["port"])))
        self.assertEqual(trace.link["sha256"], support.export_sha256(support.H100))
        html = trace.html()
        self.assertIn("over the 0.1 MB that go through the notebook (nsys_ai.perfetto.INLINE_TRACE_LIMIT)", html)
        self.assertIn(escape(trace.link["sshHint"]), html)
        self.assertTrue(nsys_ai.server().alive())


class ViewsTest(unittest.TestCase):
    def test_profile_view_analyze_ask_explain(self):
        p = nsys_ai.open(support.H100)
        view = p._repr_html_()
        top = support.cli_json("skill", "run", "top_kernels", support.H100)["rows"][0]
        self.assertIn(top[8], view)  # the top kernel's name
        self.assertIn("Where each GPU", view)
        self.assertEqual(view.count('class="budget"'), 2)  # one bar per (process, GPU)
        self.assertIn("copy_htod 95.0%", view)
        # analyze's headline leads the findings, the same sentence as the CLI's.
        headline = support.cli_json("analyze", support.H100)["summary"]
        self.assertTrue(headline.startswith("HtoD copies 95.0% of the GPU span"), headline)
        self.assertIn('<p class="headline">%s</p>' % escape(headline), view)
        self.assertLess(view.index('class="headline"'), view.index("<ul>"))
        analysis = p.analyze()
        self.assertEqual([f["rootCause"] for f in analysis.findings], ["copy_bound", "low_tensor_core_use"])
        self.assertIn("### Evidence", analysis.markdown)
        evidence = analysis.evidence(0)[0]
        self.assertEqual(list(evidence["slice"]), ["copy_htod", "copy_htod"])
        self.assertEqual(list(evidence["time_ns"]), [920872841, 920757957])
        q = "which kernel takes the most GPU time?"
        answer = p.ask(q)
        self.assertEqual(answer.summary, support.cli_json("ask", support.H100, q)["answer"]["summary"])
        explained = p.explain("elementwise_kernel")
        self.assertEqual(explained["calls"], support.cli_json("explain", support.H100, "elementwise_kernel")["calls"])
        self.assertIn("elementwise_kernel", explained._repr_markdown_())

    def test_every_fixture_has_a_view(self):
        """The view of every export among the fixtures lists as many kernels as top_kernels has rows (at most 10)
        and one time budget per (process, GPU) of time_budget."""
        import glob
        files = sorted(glob.glob(os.path.join(support.FIXTURES, "*.sqlite")) +
                       glob.glob(os.path.join(support.FIXTURES, "realworld", "*.sqlite")))
        shown = 0
        for path in files:
            try:
                p = nsys_ai.open(path)
            except nsys_ai.RequestFailedError:  # empty_export.sqlite: an export with no events
                continue
            view = p._repr_html_()
            top = support.cli_json("skill", "run", "top_kernels", path)
            budget = support.cli_json("skill", "run", "time_budget", path)
            spans = {(r[0], r[1]) for r in budget["rows"]}
            self.assertEqual(view.count('<tr class="kernel">'), min(10, len(top["rows"])), path)
            self.assertEqual(view.count('class="budget"'), len(spans), path)
            p.close()
            shown += 1
        self.assertGreaterEqual(shown, 15)

    def test_diff(self):
        d = nsys_ai.diff(support.BEFORE, support.AFTER)
        cli = support.cli_json("diff", support.BEFORE, support.AFTER)
        self.assertEqual(d.verdict, cli["verdict"])
        self.assertEqual(list(d.kernels["name"]), [k["name"] for k in cli["kernels"]])
        self.assertIn("regress" if cli["verdict"] == "regressed" else cli["verdict"], d.markdown)

    @unittest.skipUnless(os.path.isfile(support.SPLIT_RANKS), "no split_ranks.py")
    def test_open_job(self):
        folder = tempfile.mkdtemp(prefix="nsys-ai-jupyter-job-")
        try:
            subprocess.run([sys.executable, support.SPLIT_RANKS, support.BEFORE, folder], check=True,
                           capture_output=True, timeout=120)
            job = nsys_ai.open_job(folder)
            self.assertIsInstance(job, nsys_ai.Job)
            cli = support.cli_json("job-report", folder)
            self.assertEqual(list(job.ranks["gpuTimeNs"]), [r["gpuTimeNs"] for r in cli["ranks"]])
            heat = job.analysis("job_step_heatmap")
            self.assertEqual(len(heat), sum(r["steps"] for r in cli["ranks"]))
            html = job._repr_html_()
            self.assertEqual(html.count("<td style=\"background:"), len(heat))
            # Every figure of the heat map is a cell's own, as the CLI's job-report gives it (only formatted): the
            # server sends no figure for the whole map, so the legend shows none.
            cli_heat = next(a["result"] for a in cli["analyses"] if a["skill"] == "job_step_heatmap")
            names = [c["name"] for c in cli_heat["columns"]]
            expected = sorted('%s, step %d: %.3f ms (%+.2f%% vs the step median)' % (
                r["rank"], r["step"], r["step_ns"] / 1e6, r["vs_step_median_pct"])
                for r in (dict(zip(names, row)) for row in cli_heat["rows"]))
            self.assertEqual(len(expected), 32)  # split_ranks: 2 ranks x 16 steps
            self.assertEqual(sorted(re.findall(r'<td style="background:[^"]*" title="([^"]*)"></td>', html)), expected)
            legend = html.split('<table class="heat">', 1)[1].split("</table>", 1)[1].split("</p>", 1)[0]
            self.assertIn("red slower, blue faster", legend)
            self.assertIsNone(re.search(r"\d", legend), legend)
            job.close()
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    @unittest.skipUnless(os.path.isfile(support.SPLIT_RANKS), "no split_ranks.py")
    def test_open_run_is_the_old_name_of_open_job(self):
        """open_run and Run, the old names (the multi-rank noun was "run"), are open_job and Job."""
        self.assertIs(nsys_ai.open_run, nsys_ai.open_job)
        self.assertIs(nsys_ai.Run, nsys_ai.Job)
        folder = tempfile.mkdtemp(prefix="nsys-ai-jupyter-job-")
        try:
            subprocess.run([sys.executable, support.SPLIT_RANKS, support.BEFORE, folder], check=True,
                           capture_output=True, timeout=120)
            job = nsys_ai.open_run(folder)
            self.assertIsInstance(job, nsys_ai.Job)
            self.assertEqual(list(job.ranks["rank"]), ["rank0000", "rank0001"])
            job.close()
        finally:
            shutil.rmtree(folder, ignore_errors=True)


# Run in a child Python with pandas blocked (None in sys.modules: `import pandas` raises ImportError), though the
# venv sees Debian's pandas: what a kernel without python3-pandas gets.
NO_PANDAS_CHILD = r"""
import json, sys
sys.modules["pandas"] = None
try:
    import pandas
    blocked = False
except ImportError:
    blocked = True
import nsys_ai
from nsys_ai import frames
nsys_ai.configure(binary=sys.argv[1])
p = nsys_ai.open(sys.argv[2])
top = p.skill("top_kernels", limit=3)
findings = p.analyze().frame()
print(json.dumps({
    "blocked": blocked, "pd": frames._pd is not None, "type": type(top).__name__, "len": len(top),
    "columns": top.columns, "rows": top.rows, "dicts": top.to_dicts(), "attrs": top.attrs, "html": top._repr_html_(),
    "findings_type": type(findings).__name__, "findings": findings.to_dicts(),
    "pandas_loaded": sys.modules.get("pandas") is not None}))
"""


class NoPandasTest(unittest.TestCase):
    def test_without_pandas_skills_are_tables_of_the_servers_rows(self):
        """The no-pandas fallback: the real server on the H100 fixture, pandas unavailable in the child; its Table
        holds the rows that sqlite3 computes from the export itself."""
        import sqlite3
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
        out = subprocess.run([sys.executable, "-c", NO_PANDAS_CHILD, support.BINARY, support.H100], env=env,
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(out.returncode, 0, out.stderr)
        got = json.loads(out.stdout)
        self.assertTrue(got["blocked"])
        self.assertFalse(got["pd"])
        self.assertFalse(got["pandas_loaded"])
        self.assertEqual(got["type"], "Table")
        self.assertEqual(got["columns"], ["time_pct", "total_time_ns", "instances", "avg_ns", "med_ns", "min_ns",
                                          "max_ns", "stddev_ns", "name", "short_name"])
        # Independently: the top 3 kernels by summed duration, grouped by demangled name, straight from the export.
        db = sqlite3.connect("file:%s?mode=ro" % support.H100, uri=True)
        try:
            expected = db.execute(
                "SELECT s.value, SUM(k.end - k.start) AS total, COUNT(*), MIN(k.end - k.start), MAX(k.end - k.start) "
                "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName "
                "GROUP BY s.value ORDER BY total DESC LIMIT 3").fetchall()
            all_total, all_names = db.execute(
                "SELECT SUM(end - start), COUNT(DISTINCT demangledName) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()
        finally:
            db.close()
        self.assertEqual(got["len"], 3)
        self.assertEqual([(d["name"], d["total_time_ns"], d["instances"], d["min_ns"], d["max_ns"])
                          for d in got["dicts"]], [tuple(e) for e in expected])
        self.assertEqual([row[1] for row in got["rows"]], [e[1] for e in expected])
        self.assertEqual(expected[0][1], 31121662)
        self.assertIn("Showing the first 3 of %d rows." % all_names, got["attrs"]["notes"])
        self.assertTrue(any("(%d ns)" % all_total in n for n in got["attrs"]["notes"]), got["attrs"]["notes"])
        self.assertFalse(got["attrs"]["declined"])
        self.assertEqual(got["attrs"]["columns"]["total_time_ns"]["type"], "int")
        self.assertEqual(got["attrs"]["call"], {"skill": "top_kernels", "args": {"limit": 3}})
        self.assertIn('<td title="31121662 ns">31.122 ms</td>', got["html"])
        self.assertIn(escape(expected[0][0]), got["html"])
        # records_frame's fallback too: analyze's findings, as the CLI's analyze lists them.
        self.assertEqual(got["findings_type"], "Table")
        cli = support.cli_json("analyze", support.H100)
        self.assertEqual([f["rootCause"] for f in got["findings"]], [f["rootCause"] for f in cli["findings"]])
        self.assertEqual([f["atStakeNs"] for f in got["findings"]], [f["atStakeNs"] for f in cli["findings"]])
        self.assertEqual(len(got["findings"]), 2)


class HeatMapTest(unittest.TestCase):
    def test_a_cell_without_a_step_median_shows_no_gap(self):
        """The server's vs_step_median_pct is null when the step's median is 0 (job_step_heatmap.cpp); no fixture
        has such a step, so this cell is written here: the view shows no gap for it, not a 0% of its own."""
        from nsys_ai import html
        columns = [{"name": n} for n in ("rank", "rank_index", "step", "step_ns", "gpu_busy_ns", "vs_step_median_pct")]
        shown = html.heat_map({"columns": columns, "rows": [["rank0000", 0, 0, 0, 0, None],
                                                           ["rank0001", 1, 0, 2000000, 0, 12.5]]})
        self.assertIn('title="rank0000, step 0: 0.000 ms (no step median)"', shown)
        self.assertIn('title="rank0001, step 0: 2.000 ms (+12.50% vs the step median)"', shown)
        self.assertNotIn("+0.00%", shown)


class SafetyTest(unittest.TestCase):
    def test_profile_text_is_escaped_in_html_and_scripts(self):
        p = nsys_ai.open(support.H100)
        view = p._repr_html_()
        self.assertIn("reduce_kernel&lt;(int)512", view)  # a kernel name with <, >, & from the profile
        self.assertNotIn("reduce_kernel<(int)512", view)
        for text in ("</script><script>alert(1)</script>", "<!--", "a & b"):
            encoded = perfetto._js({"title": text})
            self.assertNotIn("<", encoded)
            self.assertNotIn("&", encoded)
            self.assertEqual(__import__("json").loads(encoded)["title"], text)

    def test_ask_streams_the_answer(self):
        p = nsys_ai.open(support.H100)
        answer = p.ask("which kernel takes the most GPU time?")
        self.assertTrue(answer.streamed)
        self.assertEqual(answer.streamed, answer.markdown)


class LifetimeTest(unittest.TestCase):
    def test_a_collected_profile_closes_its_id(self):
        import gc
        p = nsys_ai.open(support.H100)
        profile_id, server = p.id, nsys_ai.server()
        del p
        gc.collect()
        deadline = time.monotonic() + 5
        with self.assertRaises(nsys_ai.InvalidParamsError) as caught:
            while time.monotonic() < deadline:  # the close goes before this request; they may run in either order
                server.request("nsys/profileInfo", {"profileId": profile_id})
                time.sleep(0.05)
        self.assertIn("no open profile has id '%s'" % profile_id, str(caught.exception))

    def run_child(self, code):
        env = dict(os.environ, NSYS_AI_BIN=support.BINARY, PYTHONPATH=os.pathsep.join(sys.path))
        child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, env=env, text=True)
        pid = int(child.stdout.readline())
        child.stdout.close()
        return child, pid

    def test_one_server_per_process_ends_with_it(self):
        child, pid = self.run_child(
            "import nsys_ai; p = nsys_ai.open(%r); s = nsys_ai.server(); q = nsys_ai.open(%r)\n"
            "assert nsys_ai.server() is s\nprint(s.pid, flush=True)" % (support.H100, support.BEFORE))
        self.assertEqual(child.wait(timeout=30), 0)
        self.assertTrue(support.process_gone(pid, 5), "server %d still running after its Python exited" % pid)

    def test_a_killed_kernel_leaves_no_server(self):
        child, pid = self.run_child(
            "import nsys_ai, time; p = nsys_ai.open(%r); print(nsys_ai.server().pid, flush=True); time.sleep(60)"
            % support.H100)
        child.kill()  # no exit handlers run: the server sees its stdin end
        child.wait(timeout=10)
        self.assertTrue(support.process_gone(pid, 5), "server %d outlived a killed kernel" % pid)

    def test_shutdown_and_restart(self):
        first = nsys_ai.server()
        nsys_ai.shutdown()
        self.assertTrue(support.process_gone(first.pid, 5))
        second = nsys_ai.server()
        self.assertNotEqual(first.pid, second.pid)
        self.assertEqual(len(nsys_ai.open(support.H100).skill("top_kernels", limit=2)), 2)


if __name__ == "__main__":
    unittest.main()
