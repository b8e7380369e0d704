"""Damaged profiles: copies of a real export truncated at several points, with corrupted pages, and with crafted
schemas and values. nsys/openProfile and nsys/runSkill top_kernels must answer (a result or a clear error), never
crash, keep memory bounded; rows that cannot be right are skipped and said so. Also: the warm cache must see an
in-place edit that keeps size, inode and mtime, and names that are hostile markup render as text."""

import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time

from harness import (
    BINARY,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    LATENCY_BOUND_S,
    REQUEST_FAILED,
    SHIPPED_PROFILE,
    SLOW,
    SOURCE_DIR,
    ReliabilityCase,
    edit_sqlite,
    error_code,
    sqlite_page_size,
)

KERNELS = "CUPTI_ACTIVITY_KIND_KERNEL"
FIRST_ROWS = f"rowid IN (SELECT rowid FROM {KERNELS} ORDER BY rowid LIMIT 5)"
# The export declares start, shortName, ... NOT NULL: a copy of the table without constraints takes NULLs.
UNCONSTRAINED = [f"CREATE TABLE k_copy AS SELECT * FROM {KERNELS}", f"DROP TABLE {KERNELS}",
                 f"ALTER TABLE k_copy RENAME TO {KERNELS}"]
# The server's RSS with a damaged small profile loaded (MiB): a deviceId of 2^31-1 used to cost 270 MB.
PROFILE_RSS_BOUND_MB = 1000 if SLOW > 1 else 200
# Each request on a damaged copy of a 2 MB export must answer within this (s).
REQUEST_BOUND_S = 10 * SLOW

# Crafted variants: name -> (SQL statements run on a copy, whether top_kernels must report skipped rows).
CRAFTED = {
    "kernel table with the wrong columns": (
        [f"DROP TABLE {KERNELS}", f"CREATE TABLE {KERNELS} (a INTEGER, b TEXT)",
         f"INSERT INTO {KERNELS} VALUES (1, 'x'), (2, 'y')"],
        False,
    ),
    "text in integer columns": (
        [f"UPDATE {KERNELS} SET start = 'soon', deviceId = 'gpu', streamId = x'00ff' WHERE {FIRST_ROWS}"],
        True,
    ),
    "NULL starts": (UNCONSTRAINED + [f"UPDATE {KERNELS} SET start = NULL WHERE {FIRST_ROWS}"], True),
    "INT64 extremes": (
        [f"UPDATE {KERNELS} SET start = -9223372036854775808, end = 9223372036854775807 WHERE {FIRST_ROWS}"],
        True,
    ),
    "negative durations": ([f"UPDATE {KERNELS} SET end = start - 1000000 WHERE {FIRST_ROWS}"], True),
    "deviceId 2^31-1": ([f"UPDATE {KERNELS} SET deviceId = 2147483647 WHERE {FIRST_ROWS}"], False),
    "NULL and dangling name ids": (
        UNCONSTRAINED + [f"UPDATE {KERNELS} SET shortName = NULL, demangledName = 999999999 WHERE {FIRST_ROWS}"],
        False,
    ),
    "StringIds dropped": (["DROP TABLE StringIds"], False),
}


class DamagedProfiles(ReliabilityCase):
    def check_profile(self, path, expect_skipped_note=False, export=False):
        """A fresh server opens `path` and runs top_kernels (and exportTrace): each answers, a result or a clear
        error, within REQUEST_BOUND_S, with the server's RSS under PROFILE_RSS_BOUND_MB all along."""
        server = self.stdio_server()
        started = time.monotonic()

        def request(method, params):
            reply = self.watched_request(server, method, params, REQUEST_BOUND_S, PROFILE_RSS_BOUND_MB)
            self.assertNotEqual(error_code(reply), INTERNAL_ERROR, f"{method}: {reply}")
            return reply

        opened = request("nsys/openProfile", {"path": path})
        outcome = f"open {'error ' + str(error_code(opened)) if 'error' in opened else 'ok'}"
        if "result" in opened:
            pid = opened["result"]["profileId"]
            ran = request("nsys/runSkill", {"profileId": pid, "skill": "top_kernels"})
            if "result" in ran:
                result = ran["result"]
                outcome += f", top_kernels {len(result['rows'])} rows"
                numeric = [i for i, c in enumerate(result["columns"]) if c["type"] in ("int", "double")]
                for row in result["rows"]:
                    for i in numeric:
                        if row[i] is not None:
                            self.assertGreaterEqual(row[i], 0, f"negative {result['columns'][i]['name']}: {row}")
                if expect_skipped_note:
                    self.assertTrue(any("skip" in n.lower() for n in result["notes"]),
                                    f"damaged rows are not reported in the notes: {result['notes']}")
            else:
                outcome += f", top_kernels error {error_code(ran)}"
            if export:
                out = self.sandbox.path("work", f"export-{time.monotonic_ns()}.pftrace")
                exported = request("nsys/exportTrace", {"profileId": pid, "output": out})
                outcome += f", export {'ok' if 'result' in exported else 'error ' + str(error_code(exported))}"
        self.assert_healthy(server, rss_bound_mb=PROFILE_RSS_BOUND_MB)
        server.terminate()
        return f"{outcome} ({time.monotonic() - started:.1f} s)"

    def test_special_files_as_profiles(self):
        """Paths that are not regular files: a clear error at once, never a blocked open (a FIFO with no writer)."""
        fifo = self.sandbox.path("work", "fifo.sqlite")
        os.mkfifo(fifo)
        server = self.stdio_server()
        for path in (fifo, "/dev/zero", "/dev/urandom", "/dev/stdin", "/proc/self/fd/0", self.sandbox.path("work"),
                     self.sandbox.path("work", "missing.sqlite"), "", "file:///nonexistent.sqlite"):
            with self.subTest(path=path):
                reply = self.watched_request(server, "nsys/openProfile", {"path": path}, LATENCY_BOUND_S)
                self.assertIn(error_code(reply), (INVALID_PARAMS, REQUEST_FAILED), f"reply: {reply}")
        self.assert_healthy(server)

    def test_truncated(self):
        size = os.path.getsize(SHIPPED_PROFILE)
        page = sqlite_page_size(SHIPPED_PROFILE)
        for cut in (0, 50, 100, page, page + 1, 4 * page, size // 4, size // 2, size - page, size - 1):
            with self.subTest(cut=cut):
                path = self.sandbox.path("work", f"truncated-{cut}.sqlite")
                with open(SHIPPED_PROFILE, "rb") as src, open(path, "wb") as dst:
                    dst.write(src.read(cut))
                print(f"  truncated at {cut}: {self.check_profile(path)}")

    def test_corrupted_pages(self):
        size = os.path.getsize(SHIPPED_PROFILE)
        page = sqlite_page_size(SHIPPED_PROFILE)
        pages = size // page
        kernel_leaves = table_pages(SHIPPED_PROFILE, KERNELS, "leaf")
        kernel_inner = table_pages(SHIPPED_PROFILE, KERNELS, "internal")
        strings = table_pages(SHIPPED_PROFILE, "StringIds", "leaf")
        nvtx = table_pages(SHIPPED_PROFILE, "NVTX_EVENTS", "leaf")
        self.assertGreater(len(kernel_leaves), 4, "the kernel table has too few pages for this case")

        def at(pageno, offset=0):
            return (pageno - 1) * page + offset  # dbstat numbers pages from 1

        mid = kernel_leaves[len(kernel_leaves) // 2]
        # name -> (writes, whether top_kernels must report skipped rows when it answers)
        variants = {
            "a kernel leaf's header zeroed": ([(at(mid), b"\x00" * 12)], True),
            "a kernel leaf's cell pointers past the page end": ([(at(mid, 8), b"\xff\xf0" * 16)], True),
            "a kernel leaf's cells garbled": ([(at(mid, page // 2), bytes(range(200, 256)) * 4)], False),
            "every 3rd kernel leaf garbled": ([(at(p, page // 3), b"\x81" * 64) for p in kernel_leaves[::3]], False),
            "the kernel table's interior page overwritten": ([(at(p), b"\x0d\xff" * (page // 2))
                                                             for p in kernel_inner[:1]], False),
            "a StringIds leaf garbled": ([(at(p, 8), b"\xff\xf0" * 16) for p in strings[len(strings) // 2:][:1]],
                                         False),
            "an NVTX leaf garbled": ([(at(p, 8), b"\xff\xf0" * 16) for p in nvtx[len(nvtx) // 2:][:1]], False),
            "the last page overwritten": ([(at(pages), b"\xa5" * page)], False),
            "the header's page count lies": ([(28, (pages * 4).to_bytes(4, "big"))], False),
        }
        for name, (writes, expect_note) in variants.items():
            with self.subTest(variant=name):
                path = self.sandbox.path("work", "corrupt.sqlite")
                shutil.copyfile(SHIPPED_PROFILE, path)
                with open(path, "r+b") as f:
                    for offset, data in writes:
                        f.seek(offset)
                        f.write(data)
                print(f"  {name}: {self.check_profile(path, expect_note, export=True)}")
                os.unlink(path)

    def test_crafted_schemas(self):
        for name, (statements, expect_note) in CRAFTED.items():
            with self.subTest(variant=name):
                path = self.sandbox.path("work", "crafted.sqlite")
                shutil.copyfile(SHIPPED_PROFILE, path)
                edit_sqlite(path, *statements)
                print(f"  {name}: {self.check_profile(path, expect_note, export=True)}")
                os.unlink(path)

    def test_profiles_that_used_to_starve_the_server(self):
        """Issue 38, items 3, 4 and 5, each on a copy of the shipped export: 100,000 nested NVTX ranges around every
        launch of one thread (serve starts nvtx_kernel_map on open; it ignored its budget, $/cancelRequest and
        closeProfile), 250,000 short periodic kernels (one iterations row each: 2 GB), and an overflow chain that
        loops (the page reader re-read one page until the cell was full). Each answers within the bound with the
        server's memory bounded, and closeProfile answers at once while the background work runs."""
        deep = self.sandbox.path("work", "deep.sqlite")
        shutil.copyfile(SHIPPED_PROFILE, deep)
        edit_sqlite(deep, "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid) WITH RECURSIVE n(i) AS "
                          "(SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99999) SELECT (SELECT MIN(start) FROM "
                          "CUPTI_ACTIVITY_KIND_RUNTIME) - 100001 + i, (SELECT MAX(end) FROM CUPTI_ACTIVITY_KIND_RUNTIME) "
                          "+ 100001 - i, 59, 'deep', 281476855758960 FROM n")
        periodic = self.sandbox.path("work", "periodic.sqlite")
        shutil.copyfile(SHIPPED_PROFILE, periodic)
        edit_sqlite(periodic,
                    f"INSERT INTO {KERNELS} SELECT k.* FROM {KERNELS} k, (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
                    "SELECT i + 1 FROM n WHERE i < 250000) SELECT i FROM n) WHERE k.rowid = 1",
                    f"UPDATE {KERNELS} SET start = 156400000000 + 1000 * rowid, end = 156400000000 + 1000 * rowid + "
                    "500, shortName = CASE rowid % 2 WHEN 0 THEN 331030 ELSE 1 END WHERE rowid > 3442")
        looping = self.sandbox.path("work", "looping.sqlite")
        shutil.copyfile(SHIPPED_PROFILE, looping)
        make_looping_overflow_chain(looping)
        server = None

        def request(method, params, bound=REQUEST_BOUND_S, rss_bound_mb=PROFILE_RSS_BOUND_MB):
            reply = self.watched_request(server, method, params, bound, rss_bound_mb)
            self.assertNotEqual(error_code(reply), INTERNAL_ERROR, f"{method}: {reply}")
            return reply

        def finish():
            self.assert_healthy(server, rss_bound_mb=2 * PROFILE_RSS_BOUND_MB)
            server.terminate()

        server = self.stdio_server()  # one server per profile: each one's memory is its own
        opened = request("nsys/openProfile", {"path": deep})["result"]["profileId"]
        request("nsys/closeProfile", {"profileId": opened}, LATENCY_BOUND_S)  # while nvtx_kernel_map runs
        opened = request("nsys/openProfile", {"path": deep})["result"]["profileId"]
        ran = request("nsys/runSkill", {"profileId": opened, "skill": "nvtx_kernel_map", "args": {"limit": 5}})
        if "result" in ran:
            self.assertTrue(any("more than 256 nested NVTX ranges" in n for n in ran["result"]["notes"]), ran)
        finish()
        server = self.stdio_server()
        opened = request("nsys/openProfile", {"path": periodic})["result"]["profileId"]
        # 100,000 rows of 12 cells make a 20 MB reply: twice the small-profile bound (2M such kernels took 2 GB).
        ran = request("nsys/runSkill", {"profileId": opened, "skill": "iterations"},
                      rss_bound_mb=2 * PROFILE_RSS_BOUND_MB)
        self.assertIn("result", ran, ran)
        self.assertTrue(any("only the first 100000 are listed" in n for n in ran["result"]["notes"]), ran)
        finish()
        server = self.stdio_server()
        opened = request("nsys/openProfile", {"path": looping})
        self.assertIn("result", opened, opened)
        request("nsys/runSkill", {"profileId": opened["result"]["profileId"], "skill": "top_kernels"})
        finish()

    def test_hostile_names_render_as_text(self):
        """Issue 38: every name of the copy starts with HTML that runs script, a code-span break-out, a javascript:
        link, a bare URL and escape sequences (tests/hostile_export.py). In every Markdown the server writes, no
        '<' of a name is live (each is escaped or inside a code span), no link comes from one, and no control
        character is written as itself; the CLI's text shows the controls as escapes."""
        sys.path.insert(0, os.path.join(SOURCE_DIR, "tests"))
        import hostile_export  # noqa: E402  (standard library only)
        path = self.sandbox.path("work", "hostile.sqlite")
        hostile_export.derive(SHIPPED_PROFILE, path)
        server = self.stdio_server()
        pid = server.client.result("nsys/openProfile", {"path": path}, timeout=60 * SLOW)["profileId"]
        outputs = {
            "explain": server.client.result("nsys/explainKernel", {
                "profileId": pid, "kernel": hostile_export.HOSTILE + "vectorized_elementwise_kernel"})["markdown"],
            "analyze": server.client.result("nsys/analyze", {"profileId": pid}, timeout=60 * SLOW)["markdown"],
        }
        for question in ("which kernel takes the most GPU time?", "top 5 kernels by total time"):
            outputs[question] = server.client.result("nsys/ask", {"profileId": pid, "question": question},
                                                     timeout=60 * SLOW)["answer"]["markdown"]
        for what, markdown in outputs.items():
            live = live_markup(markdown)
            self.assertEqual(live, [], f"{what}: markup from a name is live: {live[:3]}")
            self.assertIsNone(re.search("[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e]", markdown), what)
        self.assertIn("<img src=x onerror=alert(1)>", outputs["explain"], "the name is not shown in a code span")
        cli = subprocess.run([BINARY, "skill", "run", "top_kernels", path], capture_output=True, timeout=60 * SLOW,
                             env=self.sandbox.env(), cwd=self.sandbox.path("work"))
        self.assertEqual(cli.returncode, 0, cli.stderr[-500:])
        self.assertNotIn(b"\x1b", cli.stdout)
        self.assertNotIn("\u202e".encode(), cli.stdout)
        self.assertIn(b"\\x1b]0;t\\x07\\u202e", cli.stdout)
        self.assert_healthy(server)
        server.terminate()

    def test_inplace_edit_is_seen(self):
        # An in-place edit keeping size, inode and mtime (rsync --inplace -t) used to give the old numbers back.
        # The edit lengthens the last NVTX range, whose page lies past the first MiB (the snapshot key hashed the
        # first MiB), and copies only the changed pages into the file, as rsync --inplace would.
        path = self.sandbox.copy(SHIPPED_PROFILE, "edited.sqlite")

        def rows(no_cache=False):
            server = self.stdio_server()
            pid = server.client.result("nsys/openProfile", {"path": path, "noCache": no_cache},
                                       timeout=60 * SLOW)["profileId"]
            result = server.client.result("nsys/runSkill", {"profileId": pid, "skill": "nvtx_summary"},
                                          timeout=60 * SLOW)
            time.sleep(2 * SLOW)  # the warm snapshot is written after the full load
            server.terminate()
            return result["rows"]

        before = rows()
        self.assertTrue(os.listdir(self.sandbox.path("cache")), "no warm cache was written")
        edited = self.sandbox.path("work", "edited-elsewhere.sqlite")
        shutil.copyfile(path, edited)
        edit_sqlite(edited, "UPDATE NVTX_EVENTS SET end = end + 100000000 WHERE rowid = (SELECT max(rowid) FROM "
                            "NVTX_EVENTS WHERE eventType = 59 AND end IS NOT NULL)")
        st = os.stat(path)
        page = sqlite_page_size(path)
        with open(edited, "rb") as f:
            new = f.read()
        with open(path, "rb") as f:
            old = f.read()
        self.assertEqual(len(new), len(old), "the edit changed the size; the case needs it kept")
        changed = [i for i in range(page, len(old), page) if old[i:i + page] != new[i:i + page]]
        self.assertTrue(changed and min(changed) >= 1 << 20, f"changed pages at {changed}: not all past the first MiB")
        with open(path, "r+b") as f:  # in place: same inode
            for offset in changed:
                f.seek(offset)
                f.write(new[offset:offset + page])
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
        after = rows()
        truth = rows(no_cache=True)
        self.assertNotEqual(before, truth, "the edit does not change nvtx_summary: the case tests nothing")
        self.assertEqual(after, truth, "the warm cache returned the numbers from before the in-place edit")


def make_looping_overflow_chain(path):
    """Adds a 20,000-byte string to StringIds (a local part and 4 overflow pages on 4 KiB pages), then makes the
    second overflow page's next page the first: first -> second -> first ... (a page met twice)."""
    edit_sqlite(path, "INSERT INTO StringIds (id, value) VALUES (999999, printf('%.*c', 20000, 'y'))")
    size = sqlite_page_size(path)
    data = bytearray(open(path, "rb").read())
    pages = range(1, len(data) // size + 1)
    overflow = [p for p in pages if data[(p - 1) * size + 4:(p - 1) * size + 104] == b"y" * 100]
    following = {p: int.from_bytes(data[(p - 1) * size:(p - 1) * size + 4], "big") for p in overflow}
    first = next(p for p in overflow if p not in following.values())
    second = following[first]
    data[(second - 1) * size:(second - 1) * size + 4] = first.to_bytes(4, "big")
    with open(path, "wb") as f:
        f.write(data)


def live_markup(markdown):
    """What of `markdown` a CommonMark renderer would make markup from a name: a '<' followed by a letter, '/', '!' or
    '?' (HTML) or a "](" (a link) that is neither backslash-escaped nor inside a code span. Code spans are matched as
    CommonMark matches them: a run of backticks up to the next run of the same length."""
    out, i = [], 0
    while i < len(markdown):
        c = markdown[i]
        if c == "\\":
            i += 2
            continue
        if c == "`":
            run = len(markdown[i:]) - len(markdown[i:].lstrip("`"))
            close = i + run
            while True:
                close = markdown.find("`" * run, close)
                if close < 0:
                    break
                after = len(markdown[close:]) - len(markdown[close:].lstrip("`"))
                if after == run:
                    break
                close += after
            i = i + run if close < 0 else close + run
            continue
        if (c == "<" and i + 1 < len(markdown) and (markdown[i + 1].isalpha() or markdown[i + 1] in "/!?")) or \
                markdown.startswith("](javascript", i):
            out.append(markdown[max(0, i - 20):i + 40])
        i += 1
    return out


def table_pages(path, table, pagetype):
    """Page numbers (from 1) of a table's b-tree pages of one type ('leaf', 'internal'), through SQLite's dbstat."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return [r[0] for r in conn.execute(
            "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = ? ORDER BY pageno", (table, pagetype))]
    finally:
        conn.close()
