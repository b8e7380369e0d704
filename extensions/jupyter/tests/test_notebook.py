"""Notebooks executed headless with nbclient and Debian's ipykernel: the tour notebook's outputs hold the server's
figures, and a real kernel interrupt (SIGINT to the kernel's process group, as Jupyter sends it) cancels the request
while the server keeps serving; shutting the kernel down leaves no server process."""

import base64
from html import escape
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

import support

SKIP = support.skip_reason()
if not SKIP:
    try:
        import nbclient
        import nbformat
        from jupyter_client import KernelManager
    except ImportError as error:
        SKIP = "nbclient/ipykernel missing (%s): install python3-nbclient python3-ipykernel" % error

import make_notebook


def kernel_env():
    """The kernel imports the package from the environment under test (the venv it was installed into), else from
    the source tree."""
    env = dict(os.environ, NSYS_AI_BIN=support.BINARY, PYDEVD_DISABLE_FILE_VALIDATION="1")
    try:
        import nsys_ai  # noqa: F401
    except ImportError:
        env["PYTHONPATH"] = support.PACKAGE + os.pathsep + env.get("PYTHONPATH", "")
    return env


@unittest.skipIf(SKIP, SKIP)
class NotebookTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="nsys-ai-jupyter-nb-")
        job_dir = None
        if os.path.isfile(support.SPLIT_RANKS):
            job_dir = os.path.join(cls.folder, "ranks")
            os.mkdir(job_dir)
            subprocess.run([sys.executable, support.SPLIT_RANKS, support.BEFORE, job_dir], check=True,
                           capture_output=True, timeout=120)
        cls.job_dir = job_dir
        path = os.path.join(cls.folder, "tour.ipynb")
        make_notebook.write(path, support.FIXTURES, job_dir)
        nb = nbformat.read(path, as_version=4)
        km = KernelManager(kernel_name="python3")
        km.kernel_spec.argv[0] = sys.executable  # the interpreter (and packages) under test
        client = nbclient.NotebookClient(nb, km=km, timeout=120, resources={"metadata": {"path": cls.folder}})
        started = time.monotonic()
        with _env(kernel_env()):
            client.execute()
        cls.seconds = time.monotonic() - started
        cls.cells = [c for c in nb.cells if c.cell_type == "code"]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder, ignore_errors=True)

    def outputs(self, index, mime):
        return [o["data"][mime] for o in self.cells[index].outputs if mime in o.get("data", {})]

    def test_no_cell_failed(self):
        for cell in self.cells:
            self.assertFalse([o for o in cell.outputs if o["output_type"] == "error"], cell.source)
        self.assertLess(self.seconds, 60)

    def test_profile_view(self):
        html = self.outputs(0, "text/html")[0]
        top = support.cli_json("skill", "run", "top_kernels", support.H100)["rows"]
        self.assertEqual(html.count('<tr class="kernel">'), 10)
        for row in top[:10]:  # every kernel of the top 10, by its full name
            self.assertTrue(escape(row[8]) in html, "kernel %r not in the view" % row[8])
        self.assertIn("copy_htod 95.0%", html)
        self.assertIn("copy-bound", html)

    def test_skill_frame(self):
        html = self.outputs(1, "text/html")[0]
        self.assertIn("31121662", html)  # the top kernel's total_time_ns
        self.assertEqual(html.split("<tbody>")[1].count("<tr>"), 5)

    def test_analyze_ask_explain_markdown(self):
        self.assertIn("Root cause `copy_bound`", self.outputs(2, "text/markdown")[0])
        q = "which kernel takes the most GPU time?"
        answer = self.outputs(3, "text/markdown")
        self.assertEqual(answer[-1], support.cli_json("ask", support.H100, q)["answer"]["markdown"])
        explained = support.cli_json("explain", support.H100, "elementwise_kernel")
        self.assertEqual(self.outputs(4, "text/markdown")[0], explained["markdown"])

    def test_perfetto_chunks_in_the_output_are_the_export(self):
        # auto (no front end with a comm under nbclient, so the output: the whole profile, two chunks) and
        # transport="output" for [0.2, 0.6] s (one chunk)
        for index, expected in ((5, support.export_sha256(support.H100)),
                                (6, support.export_sha256(support.H100, 0.2, 0.6))):
            html = "".join(self.outputs(index, "text/html"))
            self.assertIn("window.nsysAiPerfetto.init(", html)
            chunks = re.findall(r'nsysAiPerfetto\.chunk\("[^"]+", (\d+), "([A-Za-z0-9+/=]*)"\)', html)
            self.assertEqual([int(offset) for offset, _ in chunks],
                             [i * 1048576 for i in range(len(chunks))])
            data = b"".join(base64.b64decode(b64) for _, b64 in chunks)
            self.assertEqual(hashlib.sha256(data).hexdigest(), expected)
            config = json.loads(re.search(r"nsysAiPerfetto\.init\((\{.*?\})\);", html).group(1))
            self.assertEqual(config["bytes"], len(data))
            self.assertEqual(config["transport"], "output")

    def test_diff_and_job(self):
        verdict = support.cli_json("diff", support.BEFORE, support.AFTER)["markdown"]
        self.assertEqual(self.outputs(7, "text/markdown")[0], verdict)
        if self.job_dir:
            html = self.outputs(8, "text/html")[0]
            self.assertIn("rank0000", html)
            self.assertEqual(html.count('<td style="background:'), 32)  # 2 ranks x 16 steps


class _env:
    def __init__(self, env):
        self.env = env

    def __enter__(self):
        self.saved = dict(os.environ)
        os.environ.clear()
        os.environ.update(self.env)

    def __exit__(self, *exc):
        os.environ.clear()
        os.environ.update(self.saved)


@unittest.skipIf(SKIP, SKIP)
class KernelTest(unittest.TestCase):
    def run_code(self, kc, code, timeout=60):
        outputs = []
        reply = kc.execute_interactive(code, timeout=timeout, output_hook=outputs.append)
        text = "".join(m["content"].get("text", "") for m in outputs if m["msg_type"] == "stream")
        return reply["content"], text

    def test_interrupt_cancels_and_shutdown_leaves_no_server(self):
        skills = support.slow_skill_dir()
        km = KernelManager(kernel_name="python3")
        km.kernel_spec.argv[0] = sys.executable
        with _env(kernel_env()):
            km.start_kernel()
        kc = km.client()
        kc.start_channels()
        try:
            kc.wait_for_ready(timeout=60)
            content, text = self.run_code(kc, (
                "import nsys_ai\nnsys_ai.configure(server_args=['--skill-dir', %r, '--skill-timeout', '120'])\n"
                "p = nsys_ai.open(%r)\nprint(nsys_ai.server().pid)") % (skills, support.H100))
            self.assertEqual(content["status"], "ok", content)
            pid = int(text.split()[-1])
            msg_id = kc.execute("p.skill('slow_count')", stop_on_error=False)  # no abort of the next cell
            time.sleep(1.0)
            started = time.monotonic()
            km.interrupt_kernel()  # SIGINT to the kernel's process group
            while True:
                reply = kc.get_shell_msg(timeout=30)
                if reply["parent_header"].get("msg_id") == msg_id:
                    break
            self.assertLess(time.monotonic() - started, 6.0)
            self.assertEqual(reply["content"]["status"], "error")
            self.assertEqual(reply["content"]["ename"], "KeyboardInterrupt")
            content, text = self.run_code(kc, (
                "s = nsys_ai.server()\nprint(s.pid, s.cancelled[-1][1], int(p.skill('top_kernels', limit=1)"
                "['total_time_ns'].iloc[0]))"))
            self.assertEqual(content["status"], "ok", content)
            self.assertEqual(text.split(), [str(pid), "-32800", "31121662"])
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=False)
            shutil.rmtree(skills, ignore_errors=True)
        self.assertTrue(support.process_gone(pid, 5), "server %d outlived its kernel" % pid)


if __name__ == "__main__":
    unittest.main()
