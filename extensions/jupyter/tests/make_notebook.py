"""Writes the tour notebook the headless (nbclient) and browser (Notebook 6) tests run: every call of the README on
the fixtures. The kernel finds the server through $NSYS_AI_BIN. Usage: make_notebook.py OUT.ipynb FIXTURES_DIR [JOB_DIR]"""

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


def write(path, fixtures, job_dir=None):
    nb = new_notebook(cells=cells(fixtures, job_dir))
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)


if __name__ == "__main__":
    write(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
