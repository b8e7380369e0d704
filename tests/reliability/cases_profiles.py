"""Damaged profiles: copies of a real export truncated at several points, with corrupted pages, and with crafted
schemas and values. nsys/openProfile and nsys/runSkill top_kernels must answer (a result or a clear error), never
crash, keep memory bounded; rows that cannot be right are skipped and said so. Also: the warm cache must see an
in-place edit that keeps size, inode and mtime."""

import os
import shutil
import time

from harness import (
    INTERNAL_ERROR,
    LATENCY_BOUND_S,
    SHIPPED_PROFILE,
    SLOW,
    ReliabilityCase,
    edit_sqlite,
    error_code,
    sqlite_page_size,
)

KERNELS = "CUPTI_ACTIVITY_KIND_KERNEL"
FIRST_ROWS = f"rowid IN (SELECT rowid FROM {KERNELS} ORDER BY rowid LIMIT 5)"
# The server's RSS with a damaged small profile loaded (MiB): a deviceId of 2^31-1 used to cost 270 MB.
PROFILE_RSS_BOUND_MB = 1000 if SLOW > 1 else 200

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
    "NULL starts": ([f"UPDATE {KERNELS} SET start = NULL WHERE {FIRST_ROWS}"], True),
    "INT64 extremes": (
        [f"UPDATE {KERNELS} SET start = -9223372036854775808, end = 9223372036854775807 WHERE {FIRST_ROWS}"],
        True,
    ),
    "negative durations": ([f"UPDATE {KERNELS} SET end = start - 1000000 WHERE {FIRST_ROWS}"], True),
    "deviceId 2^31-1": ([f"UPDATE {KERNELS} SET deviceId = 2147483647 WHERE {FIRST_ROWS}"], False),
    "NULL and dangling name ids": (
        [f"UPDATE {KERNELS} SET shortName = NULL, demangledName = 999999999 WHERE {FIRST_ROWS}"],
        False,
    ),
    "StringIds dropped": (["DROP TABLE StringIds"], False),
}


class DamagedProfiles(ReliabilityCase):
    def check_profile(self, path, expect_skipped_note=False, export=False):
        """A fresh server opens `path` and runs top_kernels (and exportTrace): each answers, result or clear error."""
        server = self.stdio_server()
        client = server.client
        started = time.monotonic()
        opened = client.request("nsys/openProfile", {"path": path}, timeout=60 * SLOW)
        self.assertNotEqual(error_code(opened), INTERNAL_ERROR, f"openProfile: {opened}")
        outcome = f"open {'error ' + str(error_code(opened)) if 'error' in opened else 'ok'}"
        if "result" in opened:
            pid = opened["result"]["profileId"]
            ran = client.request("nsys/runSkill", {"profileId": pid, "skill": "top_kernels"}, timeout=60 * SLOW)
            self.assertNotEqual(error_code(ran), INTERNAL_ERROR, f"top_kernels: {ran}")
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
                exported = client.request("nsys/exportTrace", {"profileId": pid, "output": out}, timeout=60 * SLOW)
                self.assertNotEqual(error_code(exported), INTERNAL_ERROR, f"exportTrace: {exported}")
                outcome += f", export {'ok' if 'result' in exported else 'error ' + str(error_code(exported))}"
        self.assert_healthy(server, rss_bound_mb=PROFILE_RSS_BOUND_MB)
        server.terminate()
        return f"{outcome} ({time.monotonic() - started:.1f} s)"

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
        variants = {
            "page 2 header zeroed": [(page, b"\x00" * 16)],
            "page 2 header 0xff": [(page, b"\xff" * 16)],
            "b-tree pages garbled every 7 pages": [(p * page, bytes(range(37, 37 + 12))) for p in range(3, pages, 7)],
            "cell pointers past the page end": [(p * page + 8, b"\xff\xf0" * 8) for p in range(pages // 2, pages, 5)],
            "middle page overwritten": [((pages // 2) * page, bytes((i * 131) & 0xFF for i in range(page)))],
            "last page overwritten": [((pages - 1) * page, b"\xa5" * page)],
            "header page count lies": [(28, (pages * 4).to_bytes(4, "big"))],
        }
        for name, writes in variants.items():
            with self.subTest(variant=name):
                path = self.sandbox.path("work", "corrupt.sqlite")
                shutil.copyfile(SHIPPED_PROFILE, path)
                with open(path, "r+b") as f:
                    for offset, data in writes:
                        f.seek(offset)
                        f.write(data)
                print(f"  {name}: {self.check_profile(path)}")
                os.unlink(path)

    def test_crafted_schemas(self):
        for name, (statements, expect_note) in CRAFTED.items():
            with self.subTest(variant=name):
                path = self.sandbox.path("work", "crafted.sqlite")
                shutil.copyfile(SHIPPED_PROFILE, path)
                edit_sqlite(path, *statements)
                print(f"  {name}: {self.check_profile(path, expect_note, export=True)}")
                os.unlink(path)

    def test_inplace_edit_is_seen(self):
        # Defect 11: an in-place edit keeping size, inode and mtime (rsync --inplace -t) gave the old numbers back.
        path = self.sandbox.copy(SHIPPED_PROFILE, "edited.sqlite")
        args = {}

        def first_row():
            server = self.stdio_server()
            pid = server.client.result("nsys/openProfile", {"path": path}, timeout=60 * SLOW)["profileId"]
            rows = server.client.result("nsys/runSkill", {"profileId": pid, "skill": "top_kernels", "args": args},
                                        timeout=60 * SLOW)["rows"]
            # Let the warm snapshot be written (after a full load), then stop cleanly.
            time.sleep(2 * SLOW)
            server.terminate()
            return rows

        before = first_row()
        self.assertTrue(os.listdir(self.sandbox.path("cache")), "no warm cache was written")
        st = os.stat(path)
        edit_sqlite(path, f"UPDATE {KERNELS} SET end = end + 1000 WHERE rowid IN "
                          f"(SELECT rowid FROM {KERNELS} ORDER BY end - start DESC LIMIT 1)")
        self.assertEqual(os.path.getsize(path), st.st_size, "the edit changed the size; the case needs it kept")
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
        after = first_row()
        self.assertNotEqual(before, after, "the warm cache returned the numbers from before the in-place edit")
