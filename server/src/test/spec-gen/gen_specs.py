#!/usr/bin/env python3
"""Writes loghub.spl-spec and web.spl-spec: golden SPL cases whose expected tables are computed
here, without Quarry, from the Loghub structured CSVs (the upstream parse of each 2,000-line log)
and, for the demo access log, from a Python regex over the file.

Run from the repository root:  python3 server/src/test/spec-gen/gen_specs.py
It rewrites server/src/test/resources/spl-spec/{loghub,web}.spl-spec (see README.md here).

Every query that extracts a field (a built-in sourcetype's extraction or a rex) is checked here
first: the same regular expression over the raw log must give exactly the CSV's column, line by
line, so the expected table is the CSV's answer and the query is the one that should reproduce it.
"""

import collections
import csv
import datetime
import math
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
LOGHUB = os.path.join(ROOT, "server/src/test/resources/loghub")
ACCESS_LOG = os.path.join(ROOT, "server/src/main/resources/io/quarry/server/demo/access.log")
OUT = os.path.join(ROOT, "server/src/test/resources/spl-spec")


def java_regex(regex):
    """A Java regex with named groups (?<n>...) as Python's (?P<n>...)."""
    return re.sub(r"\(\?<([A-Za-z_][A-Za-z0-9_]*)>", r"(?P<\1>", regex)


def rows_of(system):
    with open(os.path.join(LOGHUB, system + "_2k.log_structured.csv"), newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def lines_of(system):
    with open(os.path.join(LOGHUB, system + "_2k.log"), encoding="utf-8") as f:
        return f.read().splitlines()


def utc(text, pattern):
    return datetime.datetime.strptime(text, pattern).replace(tzinfo=datetime.timezone.utc).timestamp()


def iso(epoch):
    return datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def number(value):
    """A number as the spec writes it: whole numbers without a fraction."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, float):
        return repr(value)
    return str(value)


def percent(count, total):
    return f"{100.0 * count / total:.6f}"


class Spec:
    def __init__(self, path, header):
        self.path = path
        self.parts = [header.rstrip() + "\n"]
        self.names = set()

    def case(self, name, query, columns, rows, comment=None, unordered=False):
        assert name not in self.names, name
        if "stats count by" in query and not unordered and case_order_open(rows):
            unordered = True
            comment = (comment + "\n" if comment else "") + (
                "Unordered: its keys sort differently with and without case, and Splunk's order of\n"
                "stats groups that differ only in case is not pinned down here.")
        self.names.add(name)
        text = f"\n=== {name}\n"
        if comment:
            for line in comment.splitlines():
                text += f"# {line}\n"
        if unordered:
            text += "options: unordered\n"
        text += f"query: {query}\n"
        text += " | ".join(columns) + "\n"
        for row in rows:
            text += " | ".join(cell(v) for v in row) + "\n"
        self.parts.append(text)

    def write(self):
        with open(self.path, "w", encoding="utf-8") as f:
            f.write("".join(self.parts))
        print(f"{self.path}: {len(self.names)} cases")


def cell(value):
    if value is None:
        return "null"
    text = number(value) if isinstance(value, (int, float)) else str(value)
    if text == "" or text == "null" or text != text.strip() or any(c in text for c in '|"[') or text.startswith("["):
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return text


def check_extraction(system, regex, group, column, rows, lines, anchored=True, transform=lambda v: v):
    """The regex over each raw line gives the CSV column of the same line (through transform)."""
    pattern = re.compile(java_regex(regex))
    assert len(rows) == len(lines), (system, len(rows), len(lines))
    for row, line in zip(rows, lines):
        match = pattern.match(line) if anchored else pattern.search(line)
        got = match.group(group) if match else None
        want = transform(row[column])
        assert got == want, f"{system}: {regex} gives {got!r}, the CSV's {column} is {want!r}: {line}"


def counts_by(values):
    return sorted(collections.Counter(values).items())


def case_order_open(rows):
    """Whether text keys order differently with and without case: left unordered (see README)."""
    keys = [str(row[0]) for row in rows]
    return sorted(keys) != sorted(keys, key=lambda k: (k.lower(), k))


def top(values, limit, total=None):
    """Splunk's top: most common first; the generator refuses ties that the limit or order would cut."""
    counts = collections.Counter(values).most_common()
    total = total if total is not None else sum(c for _, c in counts)
    chosen = counts[:limit]
    numbers = [c for _, c in counts[: limit + 1]]
    assert len(set(numbers)) == len(numbers), f"ties in top {limit}: {counts[: limit + 1]}"
    return [(v, c, percent(c, total)) for v, c in chosen]


def rare(values, limit):
    counts = sorted(collections.Counter(values).items(), key=lambda vc: (vc[1], vc[0]))
    total = sum(c for _, c in counts)
    assert len(counts) <= limit or counts[limit - 1][1] != counts[limit][1], f"a tie at rare's cut: {counts[: limit + 1]}"
    return [(v, c, percent(c, total)) for v, c in counts[:limit]]


def has_ties(rows):
    """Whether rows of (value, count, ...) repeat a count: Splunk leaves their order open."""
    numbers = [row[1] for row in rows]
    return len(set(numbers)) != len(numbers)


def phrase_count(lines, phrase):
    """Lines holding the phrase (any case); the phrase must also stand between word boundaries."""
    lower = phrase.lower()
    plain = sum(1 for line in lines if lower in line.lower())
    bounded = re.compile(r"(?<![A-Za-z0-9])" + re.escape(lower) + r"(?![A-Za-z0-9])")
    assert plain == sum(1 for line in lines if bounded.search(line.lower())), phrase
    return plain


def buckets(epochs, span):
    return counts_by(iso(math.floor(e / span) * span) for e in epochs)


# ------------------------------------------------------------------------------------------------
# Loghub


def loghub():
    spec = Spec(
        os.path.join(OUT, "loghub.spl-spec"),
        """# GENERATED by server/src/test/spec-gen/gen_specs.py from the Loghub structured CSVs
# (server/src/test/resources/loghub/<System>_2k.log_structured.csv, the upstream parse of each log)
# and the raw logs; do not edit by hand: change the script and rerun it (see its README).
# Each system is in index loghub_<system> with Quarry's built-in sourcetype for it
# (data/raw-datasets.txt). Every field a query extracts was checked by the script to give the
# CSV's column on every line.""",
    )
    systems = [
        "Android", "Apache", "BGL", "HDFS", "HPC", "Hadoop", "HealthApp", "Linux", "Mac",
        "OpenSSH", "OpenStack", "Proxifier", "Spark", "Thunderbird", "Windows", "Zookeeper",
    ]
    data = {s: (rows_of(s), lines_of(s)) for s in systems}

    for s in systems:
        rows, lines = data[s]
        spec.case(f"{s.lower()}-count", f"index=loghub_{s.lower()} | stats count", ["count:long"], [[len(rows)]])

    # Android: the built-in extraction's level/component/pid against the CSV.
    rows, lines = data["Android"]
    android = r"^\S+ \S+\s+(?<pid>\d+)\s+(?<tid>\d+) (?<level>[VDIWEF]) (?<component>[^:]*):"
    check_extraction("Android", android, "level", "Level", rows, lines)
    check_extraction("Android", android, "pid", "Pid", rows, lines)
    check_extraction("Android", android, "component", "Component", rows, lines)
    spec.case("android-count-by-level", "index=loghub_android | stats count by level",
              ["level:string", "count:long"], counts_by(r["Level"] for r in rows),
              "The Level column (V D I W E F), counted.")
    spec.case("android-top-components", "index=loghub_android | top limit=3 component",
              ["component:string", "count:long", "percent:double"], top([r["Component"] for r in rows], 3))
    spec.case("android-dc-pid-tid", "index=loghub_android | stats dc(pid) AS pids, dc(tid) AS tids",
              ["pids:long", "tids:long"],
              [[len({r["Pid"] for r in rows}), len({r["Tid"] for r in rows})]])
    errors = [r for r in rows if r["Level"] == "E"]
    spec.case("android-errors-by-component", "index=loghub_android level=E | stats count by component | sort -count, component | head 5",
              ["component:string", "count:long"],
              sorted(collections.Counter(r["Component"] for r in errors).items(), key=lambda vc: (-vc[1], vc[0]))[:5])

    # Apache: level, a phrase, days.
    rows, lines = data["Apache"]
    check_extraction("Apache", r"^\[[^\]]+\] \[(?<level>[a-z]+)(?::(?<severity>[a-z0-9]+))?\]", "level", "Level", rows, lines)
    spec.case("apache-count-by-level", "index=loghub_apache | stats count by level",
              ["level:string", "count:long"], counts_by(r["Level"] for r in rows))
    apache_times = [utc(r["Time"], "%a %b %d %H:%M:%S %Y") for r in rows]
    spec.case("apache-by-day", "index=loghub_apache | bin _time span=1d | stats count by _time",
              ["_time:time", "count:long"], buckets(apache_times, 86400))
    spec.case("apache-time-range", "index=loghub_apache | stats min(_time) AS first, max(_time) AS last, range(_time) AS span",
              ["first:long", "last:long", "span:long"],
              [[int(min(apache_times)), int(max(apache_times)), int(max(apache_times) - min(apache_times))]])
    phrase = "jk2_init() Found child"
    spec.case("apache-phrase", f'index=loghub_apache "{phrase}" | stats count', ["count:long"],
              [[phrase_count(lines, phrase)]])
    spec.case("apache-errors-per-day", "index=loghub_apache level=error | timechart span=1d count",
              ["_time:time", "count:long"],
              fill_days([t for t, r in zip(apache_times, rows) if r["Level"] == "error"]),
              "error lines per day, days without one as 0, first to last day with one.")

    # BGL: level, component, type; epoch times.
    rows, lines = data["BGL"]
    bgl = r"^(?<label>\S+) \d+ \S+ (?<node>\S+) \S+ \S+ (?<type>\S+) (?<component>\S+) (?<level>\S+)"
    check_extraction("BGL", bgl, "level", "Level", rows, lines)
    check_extraction("BGL", bgl, "component", "Component", rows, lines)
    check_extraction("BGL", bgl, "node", "Node", rows, lines)
    check_extraction("BGL", bgl, "label", "Label", rows, lines)
    spec.case("bgl-count-by-level", "index=loghub_bgl | stats count by level",
              ["level:string", "count:long"], counts_by(r["Level"] for r in rows))
    spec.case("bgl-count-by-component", "index=loghub_bgl | stats count by component",
              ["component:string", "count:long"], counts_by(r["Component"] for r in rows))
    spec.case("bgl-alerts-by-label", 'index=loghub_bgl label!="-" | stats count by label',
              ["label:string", "count:long"], counts_by(r["Label"] for r in rows if r["Label"] != "-"),
              "Alert lines carry a label other than -; != keeps only lines with the field.")
    spec.case("bgl-dc-node", "index=loghub_bgl | stats dc(node) AS nodes",
              ["nodes:long"], [[len({r["Node"] for r in rows})]])
    bgl_times = [int(r["Timestamp"]) for r in rows]
    spec.case("bgl-by-month", "index=loghub_bgl | bin _time span=1mon | stats count by _time",
              ["_time:time", "count:long"],
              counts_by(datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-01T00:00:00Z") for t in bgl_times))

    # HDFS: level, component, pid; hours.
    rows, lines = data["HDFS"]
    hdfs = r"^\d{6} \d{6} (?<pid>\d+) (?<level>[A-Z]+) (?<component>[^:]+):"
    check_extraction("HDFS", hdfs, "level", "Level", rows, lines)
    check_extraction("HDFS", hdfs, "component", "Component", rows, lines)
    check_extraction("HDFS", hdfs, "pid", "Pid", rows, lines)
    spec.case("hdfs-count-by-level", "index=loghub_hdfs | stats count by level",
              ["level:string", "count:long"], counts_by(r["Level"] for r in rows))
    spec.case("hdfs-count-by-component", "index=loghub_hdfs | stats count by component",
              ["component:string", "count:long"], counts_by(r["Component"] for r in rows))
    pids = [int(r["Pid"]) for r in rows]
    spec.case("hdfs-pid-stats", "index=loghub_hdfs | stats min(pid) AS lo, max(pid) AS hi, dc(pid) AS n, avg(pid) AS mean",
              ["lo:long", "hi:long", "n:long", "mean:double"],
              [[min(pids), max(pids), len(set(pids)), sum(pids) / len(pids)]])
    hdfs_times = [utc(r["Date"] + r["Time"].zfill(6), "%y%m%d%H%M%S") for r in rows]
    spec.case("hdfs-by-hour", "index=loghub_hdfs | bin _time span=1h | stats count by _time",
              ["_time:time", "count:long"], buckets(hdfs_times, 3600))
    phrase = "Receiving block"
    spec.case("hdfs-phrase", f'index=loghub_hdfs "{phrase}" | stats count', ["count:long"],
              [[phrase_count(lines, phrase)]])
    spec.case("hdfs-where-len", "index=loghub_hdfs | where len(component) > 25 | stats count by component",
              ["component:string", "count:long"], counts_by(r["Component"] for r in rows if len(r["Component"]) > 25))

    # HPC: component, state, node; epoch times.
    rows, lines = data["HPC"]
    hpc = r"^(?<logid>\d+) (?<node>\S+) (?<component>\S+) (?<state>\S+) \d+ (?<flag>-?\d+) "
    check_extraction("HPC", hpc, "component", "Component", rows, lines)
    check_extraction("HPC", hpc, "state", "State", rows, lines)
    check_extraction("HPC", hpc, "node", "Node", rows, lines)
    spec.case("hpc-count-by-component", "index=loghub_hpc | stats count by component",
              ["component:string", "count:long"], counts_by(r["Component"] for r in rows))
    spec.case("hpc-top-states", "index=loghub_hpc | top limit=3 state",
              ["state:string", "count:long", "percent:double"], top([r["State"] for r in rows], 3))
    rarest = rare([r["Component"] for r in rows], 3)
    spec.case("hpc-rare-components", "index=loghub_hpc | rare limit=3 component",
              ["component:string", "count:long", "percent:double"], rarest, unordered=has_ties(rarest))
    spec.case("hpc-dedup-node", "index=loghub_hpc | dedup node | stats count",
              ["count:long"], [[len({r["Node"] for r in rows})]])

    # Hadoop: level, process; times with milliseconds.
    rows, lines = data["Hadoop"]
    lines = [l for l in lines]
    hadoop = r"^\S+ \S+ (?<level>[A-Z]+) \[(?<process>[^\]]+)\] (?<component>[^:]+):"
    check_extraction("Hadoop", hadoop, "level", "Level", rows, lines)
    check_extraction("Hadoop", hadoop, "process", "Process", rows, lines)
    spec.case("hadoop-count-by-level", "index=loghub_hadoop | stats count by level",
              ["level:string", "count:long"], counts_by(r["Level"] for r in rows))
    spec.case("hadoop-top-processes", "index=loghub_hadoop | top limit=2 process",
              ["process:string", "count:long", "percent:double"], top([r["Process"] for r in rows], 2))
    hadoop_times = [utc(r["Date"] + " " + r["Time"], "%Y-%m-%d %H:%M:%S,%f") for r in rows]
    spec.case("hadoop-time-range", "index=loghub_hadoop | stats min(_time) AS first, max(_time) AS last",
              ["first:double", "last:double"], [[min(hadoop_times), max(hadoop_times)]],
              "Times with milliseconds: epoch seconds with a fraction.")
    spec.case("hadoop-by-hour", "index=loghub_hadoop | bin _time span=1h | stats count by _time",
              ["_time:time", "count:long"], buckets(hadoop_times, 3600))
    warn = [r for r in rows if r["Level"] == "WARN"]
    spec.case("hadoop-warn-by-process", "index=loghub_hadoop level=WARN | stats count by process | sort -count, process | head 3",
              ["process:string", "count:long"],
              sorted(collections.Counter(r["Process"] for r in warn).items(), key=lambda vc: (-vc[1], vc[0]))[:3])

    # HealthApp: component, pid.
    rows, lines = data["HealthApp"]
    health = r"^[^|]+\|(?<component>[^|]+)\|(?<pid>\d+)\|"
    check_extraction("HealthApp", health, "component", "Component", rows, lines)
    check_extraction("HealthApp", health, "pid", "Pid", rows, lines)
    spec.case("healthapp-count-by-component", "index=loghub_healthapp | stats count by component",
              ["component:string", "count:long"], counts_by(r["Component"] for r in rows))
    health_times = [utc(r["Time"].split(":")[0], "%Y%m%d-%H") + 60 * int(r["Time"].split(":")[1]) + int(r["Time"].split(":")[2])
                    + int(r["Time"].split(":")[3]) / 1000 for r in rows]
    spec.case("healthapp-by-hour", "index=loghub_healthapp | bin _time span=1h | stats count by _time",
              ["_time:time", "count:long"], buckets(health_times, 3600))
    steps = [r for r in rows if r["Content"].startswith("onStandStepChanged ")]
    values = [int(r["Content"].split(" ")[1]) for r in steps]
    spec.case("healthapp-rex-steps",
              'index=loghub_healthapp "onStandStepChanged" | rex "\\|onStandStepChanged (?<steps>\\d+)$" | stats count(steps) AS n, max(steps) AS most, sum(steps) AS total',
              ["n:long", "most:long", "total:long"], [[len(values), max(values), sum(values)]],
              "The Content \"onStandStepChanged <n>\" lines: how many, the largest n and their sum.")

    # Linux: a rex for the CSV's Component (the syslog extraction's process stops at a space:
    # "syslogd 1.4.1" is a Component).
    rows, lines = data["Linux"]
    linux = r"^\w+\s+\d+ [\d:]+ \S+ +(?<component>[^\[:]+)"
    check_extraction("Linux", linux, "component", "Component", rows, lines)
    spec.case("linux-top-components", 'index=loghub_linux | rex "^\\w+\\s+\\d+ [\\d:]+ \\S+ +(?<component>[^\\[:]+)" | stats count by component | sort -count | head 3',
              ["component:string", "count:long"],
              [(v, c) for v, c, _ in top([r["Component"] for r in rows], 3)])
    spec.case("linux-rex-component", 'index=loghub_linux | rex "^\\w+\\s+\\d+ [\\d:]+ \\S+ +(?<component>[^\\[:]+)" | stats dc(component) AS n',
              ["n:long"], [[len({r["Component"] for r in rows})]])
    phrase = "authentication failure"
    spec.case("linux-phrase", f'index=loghub_linux "{phrase}" | stats count', ["count:long"],
              [[phrase_count(lines, phrase)]])
    spec.case("linux-pid-missing", "index=loghub_linux NOT pid=* | stats count",
              ["count:long"], [[sum(1 for r in rows if r["PID"] == "")]],
              "Lines whose process has no [pid].")
    months = {m: datetime.date(2000, i, 1).strftime("%B").lower()
              for i, m in enumerate(["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
                                     "Nov", "Dec"], 1)}
    spec.case("linux-date-fields", "index=loghub_linux | stats count by date_month, date_zone",
              ["date_month:string", "date_zone:string", "count:long"],
              [[m, "local", c] for m, c in counts_by(months[r["Month"]] for r in rows)],
              "Syslog names no zone: date_zone is local (Splunk's word); the month as the line writes it.")
    hours = collections.Counter(int(r["Time"][:2]) for r in rows)
    spec.case("linux-date-hour", "index=loghub_linux date_hour>=20 | stats count",
              ["count:long"], [[sum(c for h, c in hours.items() if h >= 20)]])

    # Mac: phrases only (its process names hold spaces and brackets).
    rows, lines = data["Mac"]
    for phrase in ["Thermal pressure state", "ARPT"]:
        spec.case(f"mac-phrase-{phrase.split()[0].lower()}", f'index=loghub_mac "{phrase}" | stats count', ["count:long"],
                  [[phrase_count(lines, phrase)]])
    users = [r["User"] for r in rows]
    spec.case("mac-rex-host", 'index=loghub_mac | rex "^\\S+ +\\d+ [\\d:]+ (?<machine>\\S+) " | stats dc(machine) AS n',
              ["n:long"], [[len(set(users))]])

    # OpenSSH: phrases, users, addresses.
    rows, lines = data["OpenSSH"]
    contents = [r["Content"] for r in rows]
    spec.case("openssh-failed-password", 'index=loghub_openssh "Failed password" | stats count', ["count:long"],
              [[phrase_count(lines, "Failed password")]])
    invalid = [re.match(r"Invalid user (\S+) from", c).group(1) for c in contents if re.match(r"Invalid user (\S+) from", c)]
    spec.case("openssh-top-invalid-users",
              'index=loghub_openssh "Invalid user" | rex "Invalid user (?<invalid_user>\\S+) from" | top limit=1 invalid_user',
              ["invalid_user:string", "count:long", "percent:double"], top(invalid, 1),
              "The user names of Content \"Invalid user <u> from ...\"; percent of those lines.")
    spec.case("openssh-dc-invalid-users",
              'index=loghub_openssh | rex "Invalid user (?<invalid_user>\\S+) from" | stats dc(invalid_user) AS users, count(invalid_user) AS lines',
              ["users:long", "lines:long"], [[len(set(invalid)), len(invalid)]])
    ips = [m.group(1) for c in contents for m in [re.search(r"from (\d+\.\d+\.\d+\.\d+) port", c)] if m]
    spec.case("openssh-top-source", 'index=loghub_openssh | rex "from (?<src>\\d+\\.\\d+\\.\\d+\\.\\d+) port" | top limit=2 src showperc=false',
              ["src:string", "count:long"], [(v, c) for v, c, _ in top(ips, 2)])
    spec.case("openssh-cidr", 'index=loghub_openssh | rex "from (?<src>\\d+\\.\\d+\\.\\d+\\.\\d+) port" | search src=183.62.140.0/24 | stats count',
              ["count:long"], [[sum(1 for ip in ips if ip.startswith("183.62.140."))]])
    failed = [line for line in lines if "failed password" in line.lower()]
    assert len(failed) == sum(1 for c in contents if "failed password" in c.lower())
    assert not any("user=" in line for line in failed)  # no key=value user on these lines
    # linux_secure's extraction, searched anywhere in the line (also inside "message repeated").
    secure = re.compile(java_regex(r"(?:Failed|Accepted) (?<auth_method>\S+) for (?:invalid user )?(?<user>\S+) from (?<src_ip>\S+) port (?<src_port>\d+)"))
    failed_user = [m.group("user") for line in failed for m in [secure.search(line)] if m]
    spec.case("openssh-failed-by-user", 'index=loghub_openssh "Failed password" | stats count by user | sort -count, user | head 3',
              ["user:string", "count:long"],
              sorted(collections.Counter(failed_user).items(), key=lambda vc: (-vc[1], vc[0]))[:3],
              "linux_secure's extraction sets user on \"Failed <method> for [invalid user] <u> from\".")

    # OpenStack: level, pid; times with milliseconds.
    rows, lines = data["OpenStack"]
    openstack = r"^(?<logrecord>\S+) \S+ \S+ (?<pid>\d+) (?<level>[A-Z]+) (?<component>\S+) "
    check_extraction("OpenStack", openstack, "level", "Level", rows, lines)
    check_extraction("OpenStack", openstack, "component", "Component", rows, lines)
    spec.case("openstack-count-by-level", "index=loghub_openstack | stats count by level",
              ["level:string", "count:long"], counts_by(r["Level"] for r in rows))
    spec.case("openstack-top-components", "index=loghub_openstack | top limit=3 component",
              ["component:string", "count:long", "percent:double"], top([r["Component"] for r in rows], 3))
    status = [m.group(1) for r in rows for m in [re.search(r"status: (\d{3}) ", r["Content"])] if m]
    spec.case("openstack-rex-status", 'index=loghub_openstack | rex "status: (?<code>\\d{3}) " | stats count by code',
              ["code:string", "count:long"], counts_by(status))
    openstack_times = [utc(r["Date"] + " " + r["Time"], "%Y-%m-%d %H:%M:%S.%f") for r in rows]
    spec.case("openstack-by-10-minutes", "index=loghub_openstack | bin _time span=10m | stats count by _time",
              ["_time:time", "count:long"], buckets(openstack_times, 600))

    # Proxifier: program.
    rows, lines = data["Proxifier"]
    check_extraction("Proxifier", r"^\[[^\]]+\] (?<program>.+?) - ", "program", "Program", rows, lines)
    spec.case("proxifier-top-programs", "index=loghub_proxifier | top limit=3 program",
              ["program:string", "count:long", "percent:double"], top([r["Program"] for r in rows], 3))
    spec.case("proxifier-dedup-program", "index=loghub_proxifier | dedup program | stats count",
              ["count:long"], [[len({r["Program"] for r in rows})]])
    phrase = "open through proxy"
    spec.case("proxifier-phrase", f'index=loghub_proxifier "{phrase}" | stats count', ["count:long"],
              [[phrase_count(lines, phrase)]])

    # Spark: level, component; days.
    rows, lines = data["Spark"]
    spark = r"^\S+ \S+ (?<level>[A-Z]+) (?<component>[^:]+):"
    check_extraction("Spark", spark, "level", "Level", rows, lines)
    check_extraction("Spark", spark, "component", "Component", rows, lines)
    spec.case("spark-count-by-level", "index=loghub_spark | stats count by level",
              ["level:string", "count:long"], counts_by(r["Level"] for r in rows))
    spec.case("spark-top-components", "index=loghub_spark | top limit=3 component",
              ["component:string", "count:long", "percent:double"], top([r["Component"] for r in rows], 3))
    spark_times = [utc(r["Date"] + " " + r["Time"], "%y/%m/%d %H:%M:%S") for r in rows]
    spec.case("spark-by-day", "index=loghub_spark | bin _time span=1d | stats count by _time",
              ["_time:time", "count:long"], buckets(spark_times, 86400))

    # Thunderbird: epoch times, a phrase.
    rows, lines = data["Thunderbird"]
    th_times = [int(r["Timestamp"]) for r in rows]
    spec.case("thunderbird-by-day", "index=loghub_thunderbird | bin _time span=1d | stats count by _time",
              ["_time:time", "count:long"], buckets(th_times, 86400))
    phrase = "session opened for user"
    spec.case("thunderbird-phrase", f'index=loghub_thunderbird "{phrase}" | stats count', ["count:long"],
              [[phrase_count(lines, phrase)]])

    # Windows: level, component.
    rows, lines = data["Windows"]
    windows = r"^\S+ \S+, (?<level>\w+)\s+(?<component>\S+)"
    check_extraction("Windows", windows, "level", "Level", rows, lines)
    check_extraction("Windows", windows, "component", "Component", rows, lines)
    spec.case("windows-count-by-level", "index=loghub_windows | stats count by level",
              ["level:string", "count:long"], counts_by(r["Level"] for r in rows))
    spec.case("windows-chart-level-by-component", "index=loghub_windows | chart count over component by level",
              ["component:string"] + [f"{l}:long" for l in sorted({r["Level"] for r in rows})],
              chart(rows, "Component", "Level"))

    # Zookeeper: level, node; days.
    rows, lines = data["Zookeeper"]
    zk = r"^\S+ \S+ - (?<level>[A-Z]+)\s+\[(?<node>.*):(?<component>[^:@]+)@(?<line>\d+)\] - "
    check_extraction("Zookeeper", zk, "level", "Level", rows, lines)
    # The CSV's Component keeps the node's address before the class name (0:0:0:0:0:0:0:2181:Learner).
    def last(component):
        return component.split(":")[-1]

    check_extraction("Zookeeper", zk, "component", "Component", rows, lines, transform=last)
    spec.case("zookeeper-count-by-level", "index=loghub_zookeeper | stats count by level",
              ["level:string", "count:long"], counts_by(r["Level"] for r in rows))
    spec.case("zookeeper-top-components", "index=loghub_zookeeper | top limit=3 component",
              ["component:string", "count:long", "percent:double"], top([last(r["Component"]) for r in rows], 3),
              "The class name at the end of the CSV's Component.")
    zk_times = [utc(r["Date"] + " " + r["Time"], "%Y-%m-%d %H:%M:%S,%f") for r in rows]
    spec.case("zookeeper-by-day", "index=loghub_zookeeper | bin _time span=1d | stats count by _time",
              ["_time:time", "count:long"], buckets(zk_times, 86400))
    levels = sorted({r["Level"] for r in rows})
    spec.case("zookeeper-eventstats-share", "index=loghub_zookeeper | eventstats count AS all | stats count, max(all) AS all by level | eval share=round(100*count/all, 2)",
              ["level:string", "count:long", "all:long", "share:double"],
              [[l, c, len(rows), round(100 * c / len(rows), 2)] for l, c in counts_by(r["Level"] for r in rows)])

    spec.write()


def fill_days(epochs):
    days = sorted({math.floor(e / 86400) for e in epochs})
    counts = collections.Counter(math.floor(e / 86400) for e in epochs)
    return [(iso(d * 86400), counts.get(d, 0)) for d in range(days[0], days[-1] + 1)]


def chart(rows, over, by):
    columns = sorted({r[by] for r in rows})
    counts = collections.Counter((r[over], r[by]) for r in rows)
    return [[o] + [counts.get((o, b), 0) for b in columns] for o in sorted({r[over] for r in rows})]


# ------------------------------------------------------------------------------------------------
# The demo access log (index web, sourcetype access_combined)

ACCESS = re.compile(
    r'^(?P<clientip>\S+) \S+ \S+ \[(?P<time>[^\]]+)\] "(?P<method>[A-Z]+) (?P<uri>(?P<uri_path>[^\s?"]*)(?:\?[^\s"]*)?)[^"]*" (?P<status>\d{3}) (?P<bytes>\d+|-)'
)


def web():
    spec = Spec(
        os.path.join(OUT, "web.spl-spec"),
        """# GENERATED by server/src/test/spec-gen/gen_specs.py from the demo access log
# (server/src/main/resources/io/quarry/server/demo/access.log, 5,000 lines of 2026-01-07, parsed
# here with a Python regex); do not edit by hand: change the script and rerun it (see its README).
# Index web, sourcetype access_combined (data/raw-datasets.txt).""",
    )
    with open(ACCESS_LOG, encoding="utf-8") as f:
        events = [ACCESS.match(line).groupdict() for line in f.read().splitlines()]
    for e in events:
        e["epoch"] = datetime.datetime.strptime(e["time"], "%d/%b/%Y:%H:%M:%S %z").timestamp()
        e["bytes_n"] = int(e["bytes"]) if e["bytes"] != "-" else None
    n = len(events)
    spec.case("count", "index=web | stats count", ["count:long"], [[n]])
    spec.case("methods", "index=web | stats count by method", ["method:string", "count:long"],
              counts_by(e["method"] for e in events))
    # f(eval(...)): the expression's value per event; a condition counts where it holds
    by_method = {}
    for e in events:
        m = by_method.setdefault(e["method"], [0, 0])
        m[0] += 1 if int(e["status"]) >= 500 else 0
        m[1] += 1
    spec.case("count-eval-errors", "index=web | stats count(eval(status>=500)) AS errors, count by method",
              ["method:string", "errors:long", "count:long"],
              [[k, v[0], v[1]] for k, v in sorted(by_method.items())])
    spec.case("count-eval-default-name", 'index=web | stats count(eval(method="POST"))',
              ['count(eval(method="POST")):long'], [[sum(1 for e in events if e["method"] == "POST")]])
    kb = [e["bytes_n"] / 1000 for e in events if e["bytes_n"] is not None]
    spec.case("avg-eval-kb", "index=web | stats avg(eval(bytes/1000)) AS kb, max(eval(bytes/1000)) AS most",
              ["kb:double", "most:double"], [[number(sum(kb) / len(kb)), number(max(kb))]])
    notfound = [e["epoch"] for e in events if e["status"] == "404"]
    spec.case("timechart-count-eval", "index=web | timechart span=6h count(eval(status=404)) AS notfound",
              ["_time:time", "notfound:long"], buckets(notfound, 6 * 3600))
    # tstats reads only indexed fields: access_combined indexes clientip, method, uri_path, status
    spec.case("tstats-by-status", "| tstats count where index=web by status",
              ["status:string", "count:long"], counts_by(e["status"] for e in events))
    spec.case("tstats-dc-post", "| tstats dc(clientip) AS clients where index=web method=POST",
              ["clients:long"], [[len({e["clientip"] for e in events if e["method"] == "POST"})]])
    spec.case("tstats-4h", "| tstats count where index=web by _time span=4h",
              ["_time:time", "count:long"], buckets([e["epoch"] for e in events], 4 * 3600))
    spec.case("tstats-path-method", "| tstats count where index=web uri_path=/cart.do by method",
              ["method:string", "count:long"],
              counts_by(e["method"] for e in events if e["uri_path"] == "/cart.do"))
    errors = [e for e in events if int(e["status"]) >= 500]
    spec.case("server-errors", "index=web status>=500 | stats count by status", ["status:string", "count:long"],
              counts_by(e["status"] for e in errors))
    mid = [e for e in events if 200 < int(e["status"]) < 400]
    spec.case("status-range", "index=web status<400 status>200 | stats count by status", ["status:string", "count:long"],
              counts_by(e["status"] for e in mid))
    spec.case("top-paths", "index=web | top limit=3 uri_path", ["uri_path:string", "count:long", "percent:double"],
              top([e["uri_path"] for e in events], 3))
    spec.case("chart-errors", "index=web status>=500 | chart count over method by status",
              ["method:string"] + [f"{s}:long" for s in sorted({e['status'] for e in errors})],
              chart(errors, "method", "status"))
    by_ip = sorted(collections.Counter(e["clientip"] for e in errors).items(), key=lambda vc: (-vc[1], vc[0]))[:3]
    spec.case("error-clients", "index=web status>=500 | stats count by clientip | sort -count, clientip | head 3",
              ["clientip:string", "count:long"], by_ip)
    sizes = [e["bytes_n"] for e in events if e["bytes_n"] is not None]
    spec.case("bytes", "index=web | stats sum(bytes) AS total, min(bytes) AS smallest, max(bytes) AS largest, avg(bytes) AS mean",
              ["total:long", "smallest:long", "largest:long", "mean:double"],
              [[sum(sizes), min(sizes), max(sizes), sum(sizes) / len(sizes)]])
    assert max(sizes) < 5000
    spec.case("bin-bytes", "index=web | bin bytes bins=5 AS size | stats count by size", ["size:string", "count:long"],
              counts_by(f"{b // 1000 * 1000}-{b // 1000 * 1000 + 1000}" for b in sizes),
              "bytes (0..4999) in bins of 1000: the smallest power of ten giving at most 5 bins.")
    spec.case("eval-sizes", 'index=web | eval size=if(bytes >= 2500, "large", "small") | stats count by size',
              ["size:string", "count:long"], counts_by("large" if b >= 2500 else "small" for b in sizes))
    means = {}
    for m in {e["method"] for e in events}:
        values = [e["bytes_n"] for e in events if e["method"] == m]
        means[m] = sum(values) / len(values)
    spec.case("eventstats-above-mean", "index=web | eventstats avg(bytes) AS mean by method | where bytes > mean | stats count by method",
              ["method:string", "count:long"], counts_by(e["method"] for e in events if e["bytes_n"] > means[e["method"]]))
    spec.case("dedup-methods", "index=web | dedup method | sort method | table method", ["method:string"],
              [[m] for m in sorted({e["method"] for e in events})])
    newest = sorted(events, key=lambda e: -e["epoch"])[:5]
    running, per_method, total = [], collections.Counter(), 0
    for e in newest:
        total += e["bytes_n"]
        per_method[e["method"]] += 1
        running.append([e["bytes"], len(running) + 1, total, e["method"], per_method[e["method"]]])
    assert len({e["epoch"] for e in sorted(events, key=lambda e: -e["epoch"])[:6]}) == 6
    spec.case("streamstats-running",
              "index=web | head 5 | streamstats count, sum(bytes) AS running | streamstats count AS per_method by method | table bytes, count, running, method, per_method",
              ["bytes:string", "count:long", "running:long", "method:string", "per_method:long"], running)
    spec.case("timechart-4h", "index=web | timechart span=4h count",
              ["_time:time", "count:long"], buckets([e["epoch"] for e in events], 4 * 3600))
    spec.case("timechart-by-method", "index=web | timechart span=6h count by method",
              ["_time:time"] + [f"{m}:long" for m in sorted({e['method'] for e in events})],
              [[iso(b * 21600)] + [sum(1 for e in events if math.floor(e["epoch"] / 21600) == b and e["method"] == m)
                                    for m in sorted({e['method'] for e in events})]
               for b in sorted({math.floor(e["epoch"] / 21600) for e in events})])
    # _time alone, and by status: an access-log field found in the texts, not an index-time one, so
    # the by-status case decodes each block whole; whether a run's times are read from each block's
    # first bytes (session 33) depends on the blocks' layout in the journal and is not seen by a spec
    # (server tests PrefixTimesSearchTest and PrefixThenWholeDecodeTest read it from jobs' stats)
    epochs = [e["epoch"] for e in events]
    spec.case("time-range", "index=web | stats min(_time) AS first, max(_time) AS last, range(_time) AS span",
              ["first:long", "last:long", "span:long"],
              [[int(min(epochs)), int(max(epochs)), int(max(epochs) - min(epochs))]])
    by_status = {}
    for e in events:
        by_status.setdefault(e["status"], []).append(e["epoch"])
    spec.case("range-count-by-status", "index=web | stats range(_time) AS duration, count BY status",
              ["status:string", "duration:long", "count:long"],
              [[k, int(max(v) - min(v)), len(v)] for k, v in sorted(by_status.items(), key=lambda kv: int(kv[0]))])
    spec.case("dc-clients", "index=web | stats dc(clientip) AS clients", ["clients:long"],
              [[len({e["clientip"] for e in events})]])
    spec.case("where-path-like", 'index=web | where like(uri_path, "%.screen") | stats count',
              ["count:long"], [[sum(1 for e in events if e["uri_path"].endswith(".screen"))]])
    # Splunk's default datetime fields: the timestamp as the line writes it ("+0000": zone 0)
    local = [datetime.datetime.strptime(e["time"], "%d/%b/%Y:%H:%M:%S %z") for e in events]
    hours = collections.Counter(t.hour for t in local)
    spec.case("date-hour", "index=web | stats count by date_hour", ["date_hour:string", "count:long"],
              [[str(h), c] for h, c in sorted(hours.items())],
              "date_hour is text without a leading zero; stats orders numeric text as numbers.")
    days = collections.Counter((t.day, t.strftime("%B").lower(), t.year,
                                str(int(t.utcoffset().total_seconds() // 60))) for t in local)
    spec.case("date-day-fields", "index=web | stats count by date_mday, date_month, date_year, date_zone",
              ["date_mday:string", "date_month:string", "date_year:string", "date_zone:string", "count:long"],
              [[str(d), m, str(y), z, c] for (d, m, y, z), c in sorted(days.items())])
    wday = local[0].strftime("%A").lower()
    spec.case("date-wday-search", f"index=web date_wday={wday} date_minute<30 | stats count",
              ["count:long"], [[sum(1 for t in local if t.strftime("%A").lower() == wday and t.minute < 30)]],
              "date_* are written nowhere in the text: the search checks every event.")
    spec.case("date-second-where", "index=web | where date_second >= 30 | stats count",
              ["count:long"], [[sum(1 for t in local if t.second >= 30)]])
    spec.write()


if __name__ == "__main__":
    loghub()
    web()
