#!/usr/bin/env python3
"""A copy of a real export whose every string (kernel, NVTX, API and GPU names: the StringIds table) starts with text
that is hostile wherever it is rendered: HTML that runs script, a code-span break-out, a javascript: link, a bare URL,
a terminal escape sequence (a window title) and a right-to-left override (issue 38). The copy is made at test time and
never committed; the export itself is never written. Standard library only.

Usage: hostile_export.py SOURCE.sqlite COPY.sqlite
"""
import shutil
import sqlite3
import sys

HOSTILE = ("<img src=x onerror=alert(1)>`<img src=x onerror=alert(2)>`[c](javascript:alert(3)) http://e.vil/ "
           "\x1b]0;t\x07\u202e")


def derive(src, dst):
    shutil.copyfile(src, dst)
    db = sqlite3.connect(dst)
    try:
        db.execute("UPDATE StringIds SET value = ? || value", (HOSTILE,))
        db.commit()
    finally:
        db.close()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    derive(sys.argv[1], sys.argv[2])
