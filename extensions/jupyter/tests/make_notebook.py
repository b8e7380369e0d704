"""Writes the tour notebook the headless (nbclient) and browser (Notebook 6) tests run: every call of the README on
the fixtures. The kernel finds the server through $NSYS_AI_BIN. Usage: make_notebook.py OUT.ipynb FIXTURES_DIR [JOB_DIR], or
make_notebook.py --hostile OUT.ipynb FIXTURES_DIR HOSTILE.sqlite (derives the hostile copy, then its notebook)."""

import os
import sys

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook


def cells(fixtures, job_dir=None):
    h100 = os.path.join(fixtures, "h100_2gpu_1s.sqlite")
    before = os.path.join(fixtures, "mfu_2gpu_before.sqlite")
    after = os.path.join(fixtures, "mfu_2gpu_after.sqlite")
    out = [
        new_markdown_cell("# nsys-ai in a notebook\nEvery number below comes from `nsys-ai serve --stdio`."),
        new_code_cell("import nsys_ai\np = nsys_ai.open(%r)\np" % h100),
        new_code_cell('p.skill("top_kernels", limit=5)'),
        new_code_cell("p.analyze()"),
        new_code_cell('p.ask("which kernel takes the most GPU time?")'),
        new_code_cell('p.explain("elementwise_kernel")'),
        new_code_cell("p.perfetto()"),
        new_code_cell('p.perfetto(start=0.2, end=0.6, transport="output")'),
        new_code_cell("nsys_ai.diff(%r, %r)" % (before, after)),
    ]
    if job_dir:
        out.append(new_code_cell("job = nsys_ai.open_job(%r)\njob" % job_dir))
    return out


# The hostile copy's names (tests/hostile_export.py: HTML that runs script, a code-span break-out, a javascript: link,
# a bare URL, escape sequences): a running notebook renders Markdown as trusted HTML, so each must show as text.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tests"))
from hostile_export import HOSTILE, derive as derive_hostile  # noqa: E402


def hostile_cells(fixtures, hostile):
    h100 = os.path.join(fixtures, "h100_2gpu_1s.sqlite")
    return [
        new_code_cell("import nsys_ai\nh = nsys_ai.open(%r)\nh" % hostile),
        new_code_cell("h.analyze()"),
        new_code_cell('h.ask("which kernel takes the most GPU time?")'),
        new_code_cell('h.ask("how long did the launch calls take?")'),
        new_code_cell("h.explain(%r)" % (HOSTILE + "vectorized_elementwise_kernel")),
        new_code_cell('h.skill("top_kernels", limit=5)'),
        new_code_cell("nsys_ai.diff(%r, %r)" % (h100, hostile)),
    ]


def write(path, fixtures, job_dir=None, hostile=None):
    nb = new_notebook(cells=hostile_cells(fixtures, hostile) if hostile else cells(fixtures, job_dir))
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--hostile":  # --hostile OUT.ipynb FIXTURES_DIR HOSTILE.sqlite
        derive_hostile(os.path.join(sys.argv[3], "h100_2gpu_1s.sqlite"), sys.argv[4])
        write(sys.argv[2], sys.argv[3], hostile=sys.argv[4])
    else:
        write(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
