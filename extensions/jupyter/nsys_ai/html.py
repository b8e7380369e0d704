"""HTML for notebook outputs (Notebook 6, JupyterLab and VS Code alike): the profile view, tables, the job's heat map.
Every figure shown is a value the server returned, only formatted (ns as ms, shares as %). Every text from the
profile (kernel names, paths, notes) is escaped."""

import html as _html
import re

_KIND_COLOURS = {
    "tensor_core_math": "#2f7ed8", "cuda_core_math": "#5aa9e6", "memory_bound": "#7fc8a9", "other_kernels": "#9bb0c1",
    "communication": "#b180d7", "memset": "#d9a441",
}
_COPY_COLOUR = "#e07b39"
_IDLE_COLOUR = "#d0d0d0"
_SEVERITY_COLOURS = {"high": "#c62828", "medium": "#e08a00", "low": "#607d8b"}

STYLE = """<style>
.nsys-ai{font-family:system-ui,-apple-system,"DejaVu Sans",sans-serif;font-size:13px;line-height:1.4;max-width:1100px}
.nsys-ai h3{margin:14px 0 6px;font-size:15px}.nsys-ai h2{margin:4px 0 8px;font-size:17px}
.nsys-ai table.nsys-ai-t{border-collapse:collapse;margin:4px 0}.nsys-ai table.nsys-ai-t td,.nsys-ai table.nsys-ai-t th{
padding:2px 8px;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}
.nsys-ai table.nsys-ai-t td.s,.nsys-ai table.nsys-ai-t th.s{text-align:left;white-space:normal;word-break:break-all}
.nsys-ai .bar{display:flex;height:18px;width:100%;max-width:900px;border:1px solid #bbb;margin:2px 0 8px}
.nsys-ai .bar span{display:block;height:100%}.nsys-ai .muted{color:#666}.nsys-ai .sev{color:#fff;border-radius:3px;
padding:0 5px;font-size:11px}.nsys-ai .legend span{display:inline-block;margin-right:12px}
.nsys-ai .sw{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:middle}
.nsys-ai .heat td{width:22px;height:18px;padding:0;border:1px solid #fff}
</style>"""


# Controls (but tab and newline), C1 controls and the bidirectional formatting characters: shown as escapes, as the
# server's VisibleControls shows them (support/render_text.h), so a name cannot reorder or hide what follows it.
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _visible(match):
    c = ord(match.group())
    return "\\x%02x" % c if c < 0x80 else "\\u%04x" % c


def esc(value):
    return _html.escape(_CONTROLS.sub(_visible, str(value)), quote=True)


def ms(ns):
    return "" if ns is None else "%.3f ms" % (ns / 1e6)


def cell(value, name=""):
    if value is None:
        return "<td></td>"
    if isinstance(value, bool):
        return "<td>%s</td>" % ("yes" if value else "no")
    if isinstance(value, int) and name.endswith("_ns"):
        return '<td title="%d ns">%s</td>' % (value, ms(value))
    if isinstance(value, float):
        return "<td>%.4g</td>" % value
    if isinstance(value, int):
        return "<td>%d</td>" % value
    return '<td class="s">%s</td>' % esc(value)


def table(columns, rows, limit=200):
    head = "".join('<th class="s">%s</th>' % esc(c) if c in ("name", "slice", "description") else
                   "<th>%s</th>" % esc(c) for c in columns)
    body = "".join("<tr>%s</tr>" % "".join(cell(v, columns[i]) for i, v in enumerate(row)) for row in rows[:limit])
    more = ('<p class="muted">%d more rows (see the DataFrame).</p>' % (len(rows) - limit)) if len(rows) > limit else ""
    return '<table class="nsys-ai-t"><tr>%s</tr>%s</table>%s' % (head, body, more)


def notes(lines):
    if not lines:
        return ""
    return '<ul class="muted">%s</ul>' % "".join("<li>%s</li>" % esc(n) for n in lines)


def _slice_colour(slice_name, kind):
    if kind == "idle":
        return _IDLE_COLOUR
    if kind == "copy" or slice_name.startswith("copy"):
        return _COPY_COLOUR
    return _KIND_COLOURS.get(slice_name, "#8aa")


def time_budget(result):
    """One stacked bar per (pid, device) span of the time_budget skill, slices as wide as their span_pct."""
    if not result or result.get("declined"):
        return '<p class="muted">%s</p>' % esc(" ".join((result or {}).get("notes") or ["No time budget."]))
    names = [c["name"] for c in result["columns"]]
    spans = {}
    for row in result["rows"]:
        r = dict(zip(names, row))
        spans.setdefault((r["pid"], r["device_id"]), []).append(r)
    out = []
    for (pid, device), rows in spans.items():
        span = rows[0]["span_ns"]
        parts = []
        for r in rows:
            if not r["span_pct"]:
                continue
            parts.append('<span style="width:%.4f%%;background:%s" title="%s: %.1f%% (%s)"></span>' % (
                r["span_pct"], _slice_colour(r["slice"], r["kind"]), esc(r["slice"]), r["span_pct"], ms(r["time_ns"])))
        legend = "".join('<span><i class="sw" style="background:%s"></i>%s %.1f%%</span>' % (
            _slice_colour(r["slice"], r["kind"]), esc(r["slice"]), r["span_pct"]) for r in rows
            if r["span_pct"] and r["span_pct"] >= 1)
        out.append('<div class="budget" data-device="%s"><b>GPU %s</b> <span class="muted">(pid %s, span %s)</span>'
                   '<div class="bar">%s</div><div class="legend">%s</div></div>' % (
                       esc(device), esc(device), esc(pid), ms(span), "".join(parts), legend))
    return "".join(out)


def top_kernels(result):
    if not result or result.get("declined"):
        return '<p class="muted">%s</p>' % esc(" ".join((result or {}).get("notes") or ["No kernels."]))
    names = [c["name"] for c in result["columns"]]
    rows = []
    for row in result["rows"]:
        r = dict(zip(names, row))
        rows.append('<tr class="kernel"><td>%.1f%%</td><td title="%d ns">%s</td><td>%d</td><td title="%s ns">%s</td>'
                    '<td class="s">%s</td></tr>' % (
                        r["time_pct"], r["total_time_ns"], ms(r["total_time_ns"]), r["instances"], esc(r["avg_ns"]),
                        ms(r["avg_ns"]), esc(r["name"])))
    return ('<table class="nsys-ai-t"><tr><th>share</th><th>total</th><th>calls</th><th>average</th>'
            '<th class="s">kernel</th></tr>%s</table>' % "".join(rows))


def findings(analysis):
    if analysis is None:
        return '<p class="muted">This server has no nsys/analyze.</p>'
    items = analysis.get("findings") or []
    if not items:
        return '<p class="muted">%s</p>' % esc(analysis.get("summary") or "No findings.")
    # analyze's headline first: the sentence the CLI, the editors and MCP lead with.
    headline = '<p class="headline">%s</p>' % esc(analysis["summary"]) if analysis.get("summary") else ""
    out = []
    for f in items:
        out.append('<li><span class="sev" style="background:%s">%s</span> <b>%s</b> <span class="muted">%s, %s at '
                   'stake</span><br>%s</li>' % (
                       _SEVERITY_COLOURS.get(f.get("severity"), "#607d8b"), esc(f.get("severity", "")),
                       esc(f.get("title", "")), esc(f.get("rootCause", "")), ms(f.get("atStakeNs")),
                       esc((f.get("answer") or {}).get("summary", ""))))
    return "%s<ul>%s</ul>" % (headline, "".join(out))


def profile_view(info, budget, kernels, analysis, hello_script):
    """The profile view: summary, time budget per GPU, top kernels, findings."""
    devices = info.get("devices") or []
    kernel_rows = next((t["rows"] for t in info.get("tables") or [] if t["name"] == "CUPTI_ACTIVITY_KIND_KERNEL"), 0)
    gpus = ", ".join("%s%s" % (d.get("id"), (" " + esc(d["name"])) if d.get("name") else "") for d in devices) or "none"
    summary = ('<table class="nsys-ai-t"><tr><td class="s">file</td><td class="s">%s</td></tr>'
               '<tr><td class="s">duration</td><td class="s">%s</td></tr>'
               '<tr><td class="s">GPUs</td><td class="s">%s</td></tr>'
               '<tr><td class="s">processes</td><td class="s">%s</td></tr>'
               '<tr><td class="s">kernels</td><td class="s">%s</td></tr>'
               '<tr><td class="s">Nsight Systems</td><td class="s">%s</td></tr></table>' % (
                   esc(info.get("sourcePath", "")), ms(info.get("durationNs")), gpus, esc(info.get("processCount", "")),
                   esc(kernel_rows), esc(info.get("nsysVersion") or "unknown")))
    return ('%s<div class="nsys-ai nsys-ai-profile"><h2>%s</h2>%s<h3>Where each GPU\'s time goes</h3>%s'
            '<h3>Top kernels</h3>%s<h3>Findings</h3>%s</div>%s' % (
                STYLE, esc(info.get("sourcePath", "").rsplit("/", 1)[-1]), summary, time_budget(budget),
                top_kernels(kernels), findings(analysis), hello_script))


def heat_map(result):
    """job_step_heatmap as a ranks x steps table: each cell's colour is the server's vs_step_median_pct (red: slower
    than that step's median over the ranks, blue: faster; the largest |vs_step_median_pct| of the map is the darkest),
    its title the step time and that percentage. The server's reply has no figure for the map's largest gap, so the
    legend names none: every figure shown is a cell's own."""
    if not result or not result.get("rows"):
        return '<p class="muted">%s</p>' % esc(" ".join((result or {}).get("notes") or ["No steps found."]))
    names = [c["name"] for c in result["columns"]]
    grid, steps = {}, []
    for row in result["rows"]:
        r = dict(zip(names, row))
        grid.setdefault(r.get("rank"), {})[r.get("step")] = r
        if r.get("step") not in steps:
            steps.append(r.get("step"))
    spread = max((abs(r.get("vs_step_median_pct") or 0) for cells in grid.values() for r in cells.values()),
                 default=0) or 1
    rows = []
    for rank, cells in grid.items():
        tds = []
        for s in steps:
            r = cells.get(s)
            if r is None:
                tds.append('<td title="%s, step %s: none"></td>' % (esc(rank), esc(s)))
                continue
            pct = r.get("vs_step_median_pct")
            if pct is None:  # the server gives no gap when the step's median is 0
                tds.append('<td style="background:%s" title="%s, step %s: %s (no step median)"></td>' % (
                    _IDLE_COLOUR, esc(rank), esc(s), ms(r.get("step_ns"))))
                continue
            shade = int(255 - 180 * min(1.0, abs(pct) / spread))
            colour = "rgb(255,%d,%d)" % (shade, shade) if pct > 0 else "rgb(%d,%d,255)" % (shade, shade)
            tds.append('<td style="background:%s" title="%s, step %s: %s (%+.2f%% vs the step median)"></td>' % (
                colour, esc(rank), esc(s), ms(r.get("step_ns")), pct))
        rows.append('<tr><th class="s">%s</th>%s</tr>' % (esc(rank), "".join(tds)))
    return ('<table class="heat">%s</table><p class="muted">Step time vs that step\'s median over the ranks: red '
            'slower, blue faster, the darkest cell the largest gap in this map (hover a cell for its step time and '
            'gap).</p>' % "".join(rows))
