#!/usr/bin/env python3
"""Writes ../resources/spl-spec/metrics.spl-spec: mstats, mcatalog and mpreview cases over the
metric dataset ../resources/spl-spec/data/spec_metrics.csv, every expected table computed here from
the CSV with Splunk's documented rules -- never from Quarry's answers.

Run from the repository root (Python 3.9+, standard library only):

    python3 server/src/test/spec-gen/gen_metrics_spec.py

The rules implemented (Splunk Search Reference: mstats, mcatalog, mpreview, and the statistical
functions they share with stats):

- A series is a metric name with its dimensions. SplSpecTest loads each CSV line as a HEC metric
  envelope with host, source "spec_metrics.csv" and sourcetype "spec_metrics" (dimensions in
  Splunk too) and the fields region and, where given, dc.
- mstats aggregates the points of the series its where clause selects, grouped by the by-fields
  (a series without a by-field is left out, as stats leaves out events without one) and, with
  span=, by time bucket (floor of the time to the span, from the epoch, UTC). Rows come sorted by
  _time, then by the by-fields; columns are _time, the by-fields, then the aggregations in order,
  a wildcard metric giving one column per matching name in name order, each named
  <function>(<metric>) unless renamed with AS.
- count is a whole number; sum, avg, min, max, range; var and stdev are the sample variance and
  deviation, varp and stdevp the population ones; earliest and latest the values at the first and
  last time.
- perc<P>, p<P>, median: the value at rank P/100 * (n - 1) of the sorted values. Splunk's docs
  describe nearest-rank approximations for these and interpolation for exactperc; the script only
  writes cases where P/100 * (n - 1) is a whole number, where every one of those methods agrees.
- rate(X): per series, (latest - earliest) / (latest_time - earliest_time) with counter resets
  handled (a drop means the counter restarted from 0: the value after it is its increase), in each
  time bucket; no value with fewer than two points. The script only writes rate for groups of one
  series (Splunk's rate over several series in one group is loosely described); rate_sum and
  rate_avg are the sum and the average of the per-series rates.
- mstats prestats=true hands each point on as a row with the metric's value in a field named as
  the metric: stats and timechart after it compute what they compute over events (timechart: a row
  per span bucket from the first to the last point, a column per by-value, no value where a bucket
  has none).
- mcatalog values(<field>) lists the distinct values of a dimension (or metric_name) over the
  selected series, sorted lexicographically; a lone value is a one-value list.
- mpreview target_per_timeseries=0 gives every point of the selected series; with N > 0 at most N
  per series. Cases fix their columns with table and their order with sort, or count.
"""

import csv
import math
import os
from collections import OrderedDict, defaultdict
from datetime import datetime, timezone

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "spl-spec")
DATA = os.path.join(ROOT, "data", "spec_metrics.csv")
OUT = os.path.join(ROOT, "metrics.spl-spec")
INDEX = "spec_metrics"


def load():
    points = []
    with open(DATA, newline="") as f:
        lines = [line for line in f if not line.startswith("#")]
    for row in csv.DictReader(lines):
        dims = {
            "host": row["host"],
            "region": row["region"],
            "source": "spec_metrics.csv",
            "sourcetype": "spec_metrics",
        }
        if row["dc"]:
            dims["dc"] = row["dc"]
        points.append(
            {
                "time": int(row["_time"]),
                "metric_name": row["metric_name"],
                "value": float(row["_value"]),
                "dims": dims,
            }
        )
    return points


POINTS = load()
T0 = min(p["time"] for p in POINTS)


def series_key(p):
    return (p["metric_name"], tuple(sorted(p["dims"].items())))


def field(p, name):
    if name == "metric_name":
        return p["metric_name"]
    if name == "index":
        return INDEX
    return p["dims"].get(name)


def iso(seconds):
    return datetime.fromtimestamp(seconds, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def matches(metric, pattern):
    if pattern.endswith("*"):
        return metric.startswith(pattern[:-1])
    return metric == pattern


# ---- the statistical functions -------------------------------------------------------------


def rank(values, p):
    """The value at rank p/100 * (n - 1), refusing ranks where Splunk's methods could differ."""
    ordered = sorted(values)
    at = p / 100 * (len(ordered) - 1)
    if abs(at - round(at)) > 1e-9:
        raise ValueError(f"perc{p} of {len(ordered)} values: methods disagree; choose another case")
    return ordered[round(at)]


def series_rate(points):
    points = sorted(points, key=lambda q: q["time"])
    if len(points) < 2 or points[-1]["time"] == points[0]["time"]:
        return None
    increase = 0.0
    for before, after in zip(points, points[1:]):
        delta = after["value"] - before["value"]
        increase += delta if delta >= 0 else after["value"]  # a reset restarts from 0
    return increase / (points[-1]["time"] - points[0]["time"])


def aggregate(function, points):
    values = [p["value"] for p in points]
    n = len(values)
    if function == "count":
        return n
    if n == 0:
        return None
    if function == "sum":
        return math.fsum(values)
    if function == "avg":
        return math.fsum(values) / n
    if function == "min":
        return min(values)
    if function == "max":
        return max(values)
    if function == "range":
        return max(values) - min(values)
    if function in ("var", "stdev", "varp", "stdevp"):
        population = function.endswith("p")
        if n < (1 if population else 2):
            return None
        mean = math.fsum(values) / n
        square = math.fsum((v - mean) ** 2 for v in values) / (n if population else n - 1)
        return math.sqrt(square) if function.startswith("stdev") else square
    if function == "median":
        return rank(values, 50)
    if function.startswith("perc") or function.startswith("p"):
        return rank(values, int(function.lstrip("perc")))
    if function == "earliest":
        return min(points, key=lambda q: q["time"])["value"]
    if function == "latest":
        return max(points, key=lambda q: q["time"])["value"]
    if function in ("rate", "rate_sum", "rate_avg"):
        by_series = defaultdict(list)
        for p in points:
            by_series[series_key(p)].append(p)
        rates = [r for r in (series_rate(s) for s in by_series.values()) if r is not None]
        if function == "rate":
            if len(by_series) > 1:
                raise ValueError("rate over several series in a group: not a settled answer")
            return rates[0] if rates else None
        if not rates:
            return None
        return math.fsum(rates) if function == "rate_sum" else math.fsum(rates) / len(rates)
    raise ValueError(function)


# ---- mstats -------------------------------------------------------------------------------


def mstats(aggregations, where, by=(), span=None):
    """aggregations: (function, metric pattern, name or None); where: a predicate on a point."""
    patterns = [pattern for _, pattern, _ in aggregations]
    # only the points of the metrics the aggregations name are read (all of them for _value)
    selected = [
        p
        for p in POINTS
        if where(p) and any(t == "_value" or matches(p["metric_name"], t) for t in patterns)
    ]
    columns = []  # (name, function, metric)
    for function, pattern, name in aggregations:
        if pattern == "_value":
            columns.append((name or f"{function}(_value)", function, None))
            continue
        metrics = sorted({p["metric_name"] for p in selected if matches(p["metric_name"], pattern)})
        if "*" not in pattern:
            metrics = [pattern]
        for metric in metrics:
            columns.append((name or f"{function}({metric})", function, metric))
    groups = defaultdict(list)
    for p in selected:
        keys = [field(p, b) for b in by]
        if any(k is None for k in keys):
            continue
        bucket = (p["time"] // span * span,) if span else ()
        groups[bucket + tuple(keys)].append(p)
    header = ([("_time", "time")] if span else []) + [(b, "string") for b in by]
    header += [(name, "long" if function == "count" else "double") for name, function, _ in columns]
    rows = []
    for key in sorted(groups):
        points = groups[key]
        row = ([iso(key[0])] if span else []) + list(key[1 if span else 0 :])
        for _, function, metric in columns:
            row.append(
                aggregate(
                    function,
                    [p for p in points if metric is None or p["metric_name"] == metric],
                )
            )
        rows.append(row)
    return header, rows


def where(metric=None, **dims):
    def test(p):
        if metric is not None and not matches(p["metric_name"], metric):
            return False
        return all(field(p, k) == v for k, v in dims.items())

    return test


# ---- writing -------------------------------------------------------------------------------


def cell(value, kind):
    if value is None:
        return "null"
    if kind == "long":
        return str(int(value))
    if kind == "double":
        return repr(float(value)) if value != int(value) else str(int(value))
    if kind == "mv":
        return "[" + ", ".join(value) + "]"
    return str(value)


CASES = []


def case(name, query, header, rows, comment=None):
    CASES.append((name, query, header, rows, comment))


def render():
    out = [
        "# GENERATED by server/src/test/spec-gen/gen_metrics_spec.py from data/spec_metrics.csv:",
        "# do not edit by hand. mstats, mcatalog and mpreview over the metric index spec_metrics;",
        "# every expected table computed by the script with Splunk's rules (its docstring).",
        "",
    ]
    for name, query, header, rows, comment in CASES:
        out.append(f"=== {name}")
        if comment:
            out.append(f"# {comment}")
        out.append(f"query: {query}")
        out.append(" | ".join(f"{n}:{k}" for n, k in header))
        for row in rows:
            out.append(" | ".join(cell(v, k) for v, (_, k) in zip(row, header)))
        out.append("")
    return "\n".join(out)


# ---- the cases -----------------------------------------------------------------------------

ALL = where()
I = f"index={INDEX}"

case("count-all", f"| mstats count(_value) AS n where {I}", *mstats([("count", "_value", "n")], ALL))
case(
    "count-by-metric-name",
    f"| mstats count(_value) where {I} by metric_name",
    *mstats([("count", "_value", None)], ALL, by=["metric_name"]),
)
case(
    "avg-min-max-by-host",
    f"| mstats avg(cpu.user) AS avg min(cpu.user) AS min max(cpu.user) AS max where {I} by host",
    *mstats(
        [("avg", "cpu.user", "avg"), ("min", "cpu.user", "min"), ("max", "cpu.user", "max")],
        ALL,
        by=["host"],
    ),
)
case(
    "sum-range-by-host",
    f"| mstats sum(cpu.sys) AS s range(cpu.sys) AS r where {I} by host",
    *mstats([("sum", "cpu.sys", "s"), ("range", "cpu.sys", "r")], ALL, by=["host"]),
)
case(
    "variance-and-deviation",
    f"| mstats var(cpu.user) AS v stdev(cpu.user) AS s varp(cpu.user) AS vp stdevp(cpu.user) AS sp"
    f" where {I} by host",
    *mstats(
        [
            ("var", "cpu.user", "v"),
            ("stdev", "cpu.user", "s"),
            ("varp", "cpu.user", "vp"),
            ("stdevp", "cpu.user", "sp"),
        ],
        ALL,
        by=["host"],
    ),
)
case(
    "percentiles",
    f"| mstats perc25(net.bytes) AS p25 perc50(net.bytes) AS p50 p75(net.bytes) AS p75 where {I}"
    " by host",
    *mstats(
        [("perc25", "net.bytes", "p25"), ("perc50", "net.bytes", "p50"), ("p75", "net.bytes", "p75")],
        ALL,
        by=["host"],
    ),
    comment="5 points per series: the ranks 1, 2, 3 of 0..4 are whole (every method agrees)",
)
case(
    "median",
    f"| mstats median(mem.used) AS m where {I}",
    *mstats([("median", "mem.used", "m")], ALL),
)
case(
    "median-per-90s",
    f"| mstats median(cpu.user) where {I} by host span=90s",
    *mstats([("median", "cpu.user", None)], ALL, by=["host"], span=90),
    comment="3 points in each full 90 s bucket, 1 in the last: odd counts, one middle value",
)
case(
    "earliest-latest",
    f"| mstats earliest(cpu.user) AS first latest(cpu.user) AS last where {I} by host",
    *mstats([("earliest", "cpu.user", "first"), ("latest", "cpu.user", "last")], ALL, by=["host"]),
)
case(
    "rate-with-a-counter-reset",
    f"| mstats rate(net.bytes) AS r where {I} by host",
    *mstats([("rate", "net.bytes", "r")], ALL, by=["host"]),
    comment="host b drops from 2600 to 400: a reset, the 400 counts as increase",
)
case(
    "rate-per-2-minutes",
    f"| mstats rate(net.bytes) AS r where {I} by host span=2m",
    *mstats([("rate", "net.bytes", "r")], ALL, by=["host"], span=120),
    comment="host b resets inside the second bucket; the last bucket holds one point per series: no rate",
)
case(
    "rate-sum-and-avg",
    f"| mstats rate_sum(net.bytes) AS s rate_avg(net.bytes) AS a where {I}",
    *mstats([("rate_sum", "net.bytes", "s"), ("rate_avg", "net.bytes", "a")], ALL),
)
case(
    "wildcard-metric-by-host",
    f"| mstats avg(cpu.*) where {I} by host",
    *mstats([("avg", "cpu.*", None)], ALL, by=["host"]),
)
case(
    "wildcard-metric-span",
    f"| mstats max(cpu.*) where {I} host=a span=1m",
    *mstats([("max", "cpu.*", None)], where(host="a"), span=60),
)
case(
    "value-with-metric-name-filter",
    f"| mstats sum(_value) AS s where {I} metric_name=cpu.* by metric_name",
    *mstats([("sum", "_value", "s")], where("cpu.*"), by=["metric_name"]),
)
case(
    "by-two-dimensions",
    f"| mstats max(cpu.user) AS m where {I} by region host",
    *mstats([("max", "cpu.user", "m")], ALL, by=["region", "host"]),
)
case(
    "by-a-dimension-some-series-lack",
    f"| mstats count(_value) AS n where {I} by dc",
    *mstats([("count", "_value", "n")], ALL, by=["dc"]),
    comment="only mem.used has dc: the other series are left out",
)
case(
    "count-per-minute-by-host",
    f"| mstats count(cpu.user) AS n where {I} span=1m by host",
    *mstats([("count", "cpu.user", "n")], ALL, by=["host"], span=60),
)
case(
    "where-or-not",
    f"| mstats count(_value) AS n where {I} (host=a OR host=c) NOT metric_name=cpu.*",
    *mstats(
        [("count", "_value", "n")],
        lambda p: field(p, "host") in ("a", "c") and not matches(p["metric_name"], "cpu.*"),
    ),
)
case(
    "where-in",
    f"| mstats sum(_value) AS s where {I} metric_name IN (mem.used, disk.free) by metric_name",
    *mstats(
        [("sum", "_value", "s")],
        lambda p: p["metric_name"] in ("mem.used", "disk.free"),
        by=["metric_name"],
    ),
)
_after = mstats([("avg", "cpu.user", None)], ALL, by=["host"])
case(
    "pipeline-after-mstats",
    f"| mstats avg(cpu.user) where {I} by host | where 'avg(cpu.user)' > 50",
    _after[0],
    [row for row in _after[1] if row[1] > 50],
)

# prestats=true: the points as rows, aggregated by the command after
_minutes = sorted({p["time"] // 60 * 60 for p in POINTS if p["metric_name"] == "cpu.user"})
_hosts = sorted({p["dims"]["host"] for p in POINTS if p["metric_name"] == "cpu.user"})
_chart = []
for minute in range(_minutes[0], _minutes[-1] + 60, 60):
    row = [iso(minute)]
    for host in _hosts:
        values = [
            p
            for p in POINTS
            if p["metric_name"] == "cpu.user"
            and p["dims"]["host"] == host
            and p["time"] // 60 * 60 == minute
        ]
        row.append(aggregate("avg", values))
    _chart.append(row)
case(
    "prestats-timechart-by-host",
    f"| mstats prestats=true avg(cpu.user) where {I} span=1m | timechart span=1m avg(cpu.user) by"
    " host",
    [("_time", "time")] + [(h, "double") for h in _hosts],
    _chart,
)
case(
    "prestats-stats-by-host",
    f"| mstats prestats=true max(cpu.sys) where {I} | stats max(cpu.sys) AS m by host",
    *mstats([("max", "cpu.sys", "m")], ALL, by=["host"]),
)
case(
    "prestats-count-by-metric-name",
    f"| mstats prestats=true count(cpu.*) where {I} | stats count by metric_name",
    [("metric_name", "string"), ("count", "long")],
    mstats([("count", "_value", None)], where("cpu.*"), by=["metric_name"])[1],
)


# mcatalog
def catalog(field_name, selected, by=None):
    groups = defaultdict(set)
    for p in selected:
        key = field(p, by) if by else ""
        value = field(p, field_name)
        if key is None or value is None:
            continue
        groups[key].add(value)
    return [([k] if by else []) + [sorted(v)] for k, v in sorted(groups.items())]


case(
    "mcatalog-metric-names",
    f"| mcatalog values(metric_name) where {I}",
    [("values(metric_name)", "mv")],
    catalog("metric_name", POINTS),
)
case(
    "mcatalog-hosts-by-metric-name",
    f"| mcatalog values(host) where {I} by metric_name",
    [("metric_name", "string"), ("values(host)", "mv")],
    catalog("host", POINTS, by="metric_name"),
)
case(
    "mcatalog-renamed-with-filter",
    f"| mcatalog values(region) AS regions where {I} metric_name=cpu.* by host",
    [("host", "string"), ("regions", "mv")],
    catalog("region", [p for p in POINTS if matches(p["metric_name"], "cpu.*")], by="host"),
)
case(
    "mcatalog-several-values",
    f"| mcatalog values(sourcetype) AS st values(dc) AS dc where {I} metric_name=mem.used",
    [("st", "mv"), ("dc", "mv")],
    [
        catalog("sourcetype", [p for p in POINTS if p["metric_name"] == "mem.used"])[0]
        + catalog("dc", [p for p in POINTS if p["metric_name"] == "mem.used"])[0]
    ],
)

# mpreview
_mem = sorted(
    (p for p in POINTS if p["metric_name"] == "mem.used" and p["dims"]["host"] == "a"),
    key=lambda p: p["time"],
)
case(
    "mpreview-every-point",
    f"| mpreview target_per_timeseries=0 {I} host=a metric_name=mem.used"
    " | table _time metric_name _value host dc",
    [("_time", "time"), ("metric_name", "string"), ("_value", "double"), ("host", "string"),
     ("dc", "string")],
    [[iso(p["time"]), p["metric_name"], p["value"], "a", "x"] for p in _mem],
)
_targets = defaultdict(int)
for p in POINTS:
    if p["dims"]["host"] == "b":
        _targets[p["metric_name"]] = min(2, _targets[p["metric_name"]] + 1)
case(
    "mpreview-target-per-timeseries",
    f"| mpreview target_per_timeseries=2 {I} host=b | stats count by metric_name",
    [("metric_name", "string"), ("count", "long")],
    [[m, n] for m, n in sorted(_targets.items())],
    comment="one series per metric for host b, at most 2 points each",
)
_disk = sorted((p for p in POINTS if p["metric_name"] == "disk.free"), key=lambda p: p["time"])
case(
    "mpreview-filter",
    f'| mpreview target_per_timeseries=0 filter="metric_name=disk.free" {I}'
    " | table _time _value host region",
    [("_time", "time"), ("_value", "double"), ("host", "string"), ("region", "string")],
    [[iso(p["time"]), p["value"], p["dims"]["host"], p["dims"]["region"]] for p in _disk],
)

if __name__ == "__main__":
    text = render()
    with open(OUT, "w") as f:
        f.write(text)
    print(f"{len(CASES)} cases written to {OUT}")
