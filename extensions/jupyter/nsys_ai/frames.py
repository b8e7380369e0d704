"""A skill's result ({columns, rows, notes, declined}) as a pandas DataFrame, typed from the server's column types:
`int` columns are int64 (pandas' nullable Int64 when a cell is null), `double` float64, `string` pandas' string
dtype, `bool` bool (nullable boolean with nulls). Without pandas, a Table with the same rows. Nothing is computed."""

try:
    import pandas as _pd
except ImportError:  # pandas is optional: python3-pandas
    _pd = None

from . import html as _html


def _dtype(kind, has_null):
    if kind == "int":
        return "Int64" if has_null else "int64"
    if kind == "double":
        return "float64"
    if kind == "bool":
        return "boolean" if has_null else "bool"
    if kind == "string":
        return "string"
    return None  # untyped (an answer's evidence): pandas infers


def _attrs(result, call):
    return {
        "caption": result.get("caption", ""),
        "notes": list(result.get("notes") or []),
        "declined": bool(result.get("declined")),
        "columns": {c["name"]: {"type": c.get("type"), "description": c.get("description", "")}
                    for c in result.get("columns") or [] if isinstance(c, dict)},
        "call": call,
    }


class Table:
    """A skill's rows without pandas: `columns` (names), `rows` (lists), `attrs` as a DataFrame's."""

    def __init__(self, columns, rows, attrs):
        self.columns = columns
        self.rows = rows
        self.attrs = attrs

    def __len__(self):
        return len(self.rows)

    def to_dicts(self):
        return [dict(zip(self.columns, row)) for row in self.rows]

    def _repr_html_(self):
        return _html.table(self.columns, self.rows) + _html.notes(self.attrs["notes"])


def to_frame(result, call=None):
    """The DataFrame of a nsys/runSkill result (notes, declined, column descriptions and the call in .attrs)."""
    # A skill's columns are {name, type, description}; an answer's evidence names them only (strings).
    columns = [c if isinstance(c, dict) else {"name": str(c), "type": None} for c in result.get("columns") or []]
    names = [c["name"] for c in columns]
    rows = result.get("rows") or []
    attrs = _attrs(result, call)
    if _pd is None:
        return Table(names, rows, attrs)
    data = {}
    for i, column in enumerate(columns):
        values = [row[i] for row in rows]
        has_null = any(v is None for v in values)
        data[column["name"]] = _pd.Series(values, dtype=_dtype(column.get("type"), has_null))
    frame = _pd.DataFrame(data, columns=names)
    frame.attrs.update(attrs)
    return frame


def records_frame(records, columns=None):
    """A DataFrame (or Table) of a list of flat dicts, as the server gave them (findings, ranks, kernels of a diff)."""
    names = list(columns) if columns else list(dict.fromkeys(k for r in records for k in r))
    rows = [[r.get(n) for n in names] for r in records]
    if _pd is None:
        return Table(names, rows, {"notes": []})
    return _pd.DataFrame(rows, columns=names)
