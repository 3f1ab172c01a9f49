#!/usr/bin/env python3
"""Writes functions-*.spl-spec: golden cases for eval's function families applied to the fields of
real events (index spec, the shop; index spec_time, the month edges), so each function runs over
whole columns with missing values, numbers held as text, a value that is not a number (bytes=-) and
a multivalue field (tag in id 2) — where eval.spl-spec mostly calls them on literals.

Every expected value is computed here, in Python, from the events in data/*.json and the Splunk
Search Reference's rules (Evaluation functions), never from Quarry:

- a function of a missing value is null (Splunk's eval: "the field is not created"); if() and case()
  take a null condition as not true;
- extracted values that look like numbers act as numbers (status=200 compares equal to 200);
- substr is 1-based, a negative start counts from the end; mvindex is 0-based, its end inclusive;
- mvappend leaves missing arguments out; mvsort sorts as text (byte order); mvzip stops at the
  shorter list; mvrange excludes its end;
- tostring(X, "hex") is 0x and upper-case digits, "commas" groups thousands, "duration" is
  [D+]HH:MM:SS (the days only from one day on: the form convert's dur2sec reads);
  tonumber(X, base) reads digits of that base;
- max/min: numbers compare as numbers, any text is greater than every number, texts compare in
  byte order ("Statistical eval functions": "Strings are greater than numbers");
- relative_time snaps: @d day, @w1 the Monday at or before, @mon, @q, @y; time is UTC;
- like: % any run, _ one character; cidrmatch: IPv4 subnets; searchmatch: search's rules (a field
  value matches without case);
- printf's %f/%e/%g round and %g chooses its form as C's sprintf (the reference: "similar to the C sprintf() function"): Python's
  % operator rounds the same way;
- bit_*: whole numbers 0..2^53-1 only, anything else null ("Bitwise functions"); ipmask: both
  arguments dotted quads, the AND of the two; validate: the message of the first condition that is
  not true; eval's sum/avg: every number of every argument (a multivalue's each), the rest left out,
  avg = sum / count with eval's division (whole when even); isarray: a multivalue or a JSON array's
  text, isobject: a JSON object's text, isbool: a Boolean (a comparison), isdouble: a fraction-typed
  number (a field's "2.5" included);
- typeof/isnum/isint/isstr/isdouble of a field read its text that is a number as that number
  (typeof(status) is Number; typeof("200"), a literal, is String).

Run from the repository root:  python3 server/src/test/spec-gen/gen_function_specs.py
"""

import datetime
import decimal
import hashlib
import ipaddress
import math
import json
import os
import re
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
DATA = os.path.join(ROOT, "server/src/test/resources/spl-spec/data")
OUT = os.path.join(ROOT, "server/src/test/resources/spl-spec")
UTC = datetime.timezone.utc


# ---------------------------------------------------------------------------------------------
# the events

def events(index):
    """The index's events, newest first (a listing's order), each a dict of its fields."""
    out = []
    with open(os.path.join(DATA, index + ".json"), encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            envelope = json.loads(line)
            fields = {"_time": envelope["time"], "host": envelope["host"]}
            for key, quoted, plain in re.findall(r'(\w+)=(?:"([^"]*)"|(\S+))', envelope["event"]):
                value = quoted or plain
                if key in fields:
                    previous = fields[key]
                    fields[key] = (previous if isinstance(previous, list) else [previous]) + [value]
                else:
                    fields[key] = value
            out.append(fields)
    return sorted(out, key=lambda e: -e["_time"])


SHOP = events("spec")
TIME = events("spec_time")


def num(value):
    """Splunk's number of a value: a number, or text that reads as one; otherwise None."""
    if value is None or isinstance(value, list):
        return None
    if isinstance(value, (int, float)):
        return value
    if re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", value.strip()):
        number = float(value)
        return int(number) if number.is_integer() and "." not in value else number
    return None


def field_number(value):
    """A field's value as a type test sees it: its number when it reads as one, else the value."""
    if value is None or isinstance(value, list):
        return value
    n = num(value)
    return value if n is None or value.strip() != value else n


def field_type(value):
    """typeof of a field: Invalid when missing, Multivalue, Number, else String."""
    v = field_number(value)
    return "Invalid" if v is None else "Multivalue" if isinstance(v, list) else (
        "Number" if isinstance(v, (int, float)) else "String")


def yes(condition):
    return "y" if condition else "n"


def nulls(f):
    """f, null when any argument is null."""
    return lambda *args: None if any(a is None for a in args) else f(*args)


def values(value):
    return None if value is None else value if isinstance(value, list) else [value]


def mv(value):
    """A multivalue result: null when empty."""
    return value if value else None


# ---------------------------------------------------------------------------------------------
# the spec file

def number_text(value):
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)


def quote(text, in_list=False):
    plain = (text != "" and text != "null" and text.strip() == text and not text.startswith("[")
             and not any(c in text for c in ('|"\n,' if in_list else '|"\n')))
    return text if plain else '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def cell(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(quote(number_text(v), True) for v in value) + "]"
    return quote(number_text(value))


class Spec:
    def __init__(self, name, header):
        self.path = os.path.join(OUT, name)
        self.parts = [header.strip() + "\n"]
        self.names = set()

    def case(self, name, query, columns, rows, comment=None):
        """rows: a list of value lists, or (for listings) a function of one event and the events."""
        assert name not in self.names, name
        self.names.add(name)
        text = f"\n=== {name}\n"
        for line in (comment or "").splitlines():
            text += f"# {line}\n"
        lines = query.strip().splitlines()
        text += "query: " + lines[0] + "\n" + "".join("  " + l.strip() + "\n" for l in lines[1:])
        text += " | ".join(columns) + "\n"
        for row in rows:
            assert len(row) == len(columns), (name, row)
            text += " | ".join(cell(v) for v in row) + "\n"
        self.parts.append(text)

    def listing(self, name, query, columns, row_of, source=SHOP, where=lambda e: True, comment=None):
        """A case whose rows are one per event (newest first): row_of(event) gives its cells."""
        self.case(name, query, columns, [row_of(e) for e in source if where(e)], comment)

    def write(self):
        with open(self.path, "w", encoding="utf-8") as f:
            f.write("".join(self.parts))
        print(f"{self.path}: {len(self.names)} cases")


HEADER = """
# GENERATED by server/src/test/spec-gen/gen_function_specs.py — do not edit by hand; change the
# script and rerun it. Expected values computed in Python from data/spec.json and
# data/spec_time.json (the script's docstring states the Splunk rules it implements), never from
# Quarry.
"""


def header(what):
    return HEADER.strip() + "\n# " + what


# ---------------------------------------------------------------------------------------------
# text

def substr(s, start, length=None):
    i = max(len(s) + start, 0) if start < 0 else start - 1
    return s[i:] if length is None else s[i:i + length]


def text_specs():
    s = Spec("functions-text.spl-spec", header("Text functions over the shop's fields: len, upper, lower, substr, replace, trim, urldecode."))
    s.listing("case-and-length-over-fields",
              "index=spec | eval u=upper(user), l=lower(user), n=len(user), a=len(action) | table id, u, l, n, a",
              ["id:string", "u:string", "l:string", "n:long", "a:long"],
              lambda e: [e["id"], nulls(str.upper)(e.get("user")), nulls(str.lower)(e.get("user")),
                         nulls(len)(e.get("user")), len(e["action"])],
              comment="id 10 has no user: every function of it is null.")
    s.listing("substr-over-fields",
              "index=spec | eval first=substr(ip, 1, 3), tail=substr(ip, -2), mid=substr(action, 2, 3), rest=substr(user, 2)\n| table id, first, tail, mid, rest",
              ["id:string", "first:string", "tail:string", "mid:string", "rest:string"],
              lambda e: [e["id"], substr(e["ip"], 1, 3), substr(e["ip"], -2), substr(e["action"], 2, 3),
                         nulls(substr)(e.get("user"), 2)])
    s.listing("replace-over-fields",
              'index=spec | eval dashed=replace(ip, "\\.", "-"), swapped=replace(user, "^(\\w)(\\w*)$", "\\2\\1"),\nunder=replace(msg, " ", "_") | table id, dashed, swapped, under',
              ["id:string", "dashed:string", "swapped:string", "under:string"],
              lambda e: [e["id"], re.sub(r"\.", "-", e["ip"]),
                         nulls(lambda u: re.sub(r"^(\w)(\w*)$", r"\2\1", u))(e.get("user")),
                         nulls(lambda m: m.replace(" ", "_"))(e.get("msg"))])
    s.listing("trim-over-fields",
              'index=spec | eval t=trim(user, "ae"), l=ltrim(ip, "0123456789"), r=rtrim(ip, "0123456789"),\np=trim("  " . action . " ") | table id, t, l, r, p',
              ["id:string", "t:string", "l:string", "r:string", "p:string"],
              lambda e: [e["id"], nulls(lambda u: u.strip("ae"))(e.get("user")), e["ip"].lstrip("0123456789"),
                         e["ip"].rstrip("0123456789"), e["action"]],
              comment="trim(X, Y) removes the characters of Y from both ends; without Y, spaces and tabs.")
    s.listing("urldecode-over-fields",
              'index=spec | eval a=urldecode("%2F" . host . "%3Fid%3D" . id), b=urldecode(replace(msg, " ", "%20"))\n| table id, a, b',
              ["id:string", "a:string", "b:string"],
              lambda e: [e["id"], urllib.parse.unquote("%2F" + e["host"] + "%3Fid%3D" + e["id"]),
                         nulls(lambda m: urllib.parse.unquote(m.replace(" ", "%20")))(e.get("msg"))])
    t = "   ZZZZabcZZ "
    s.case("trim-character-sets",
           f'| makeresults | eval l=ltrim("{t}", " Z"), r=rtrim("{t}", " Z"), b=trim("{t}", " Z") | table l, r, b',
           ["l:string", "r:string", "b:string"],
           [[t.lstrip(" Z"), t.rstrip(" Z"), t.strip(" Z")]],
           comment="The Search Reference's example: the second argument is a set of characters, removed in any\norder from the end(s).")
    s.case("split-on-a-longer-delimiter",
           '| makeresults | eval m=split("a::b::c", "::"), j=mvjoin(split("x--y", "--"), "+") | table m, j',
           ["m:mv", "j:string"],
           [["a::b::c".split("::"), "+".join("x--y".split("--"))]])
    s.write()


# ---------------------------------------------------------------------------------------------
# multivalue

def mvappend(*args):
    return mv([v for a in args if a is not None for v in values(a)])


def multivalue_specs():
    s = Spec("functions-multivalue.spl-spec", header("Multivalue functions over the shop's fields: split, mvjoin, mvindex, mvcount, mvfilter, mvappend, mvdedup, mvsort, mvzip, mvrange.\n# tag is a multivalue in id 2 (new, sale) and one value in ids 6 and 12."))
    s.listing("split-over-fields",
              'index=spec | eval parts=split(ip, "."), n=mvcount(split(msg, " ")), h=mvindex(split(host, "-"), 1)\n| table id, parts, n, h',
              ["id:string", "parts:mv", "n:long", "h:string"],
              lambda e: [e["id"], e["ip"].split("."), nulls(lambda m: len(m.split(" ")))(e.get("msg")),
                         e["host"].split("-")[1]])
    s.listing("mvjoin-mvindex-over-fields",
              'index=spec | eval j=mvjoin(tag, "+"), last=mvindex(tag, -1), first=mvindex(split(ip, "."), 0),\ntwo=mvjoin(mvindex(split(ip, "."), 1, 2), ":") | table id, j, last, first, two',
              ["id:string", "j:string", "last:string", "first:string", "two:string"],
              lambda e: [e["id"], nulls(lambda t: "+".join(values(t)))(e.get("tag")),
                         nulls(lambda t: values(t)[-1])(e.get("tag")), e["ip"].split(".")[0],
                         ":".join(e["ip"].split(".")[1:3])])
    s.listing("mvcount-mvfilter-mvappend-over-fields",
              'index=spec | eval n=mvcount(tag), s=mvfilter(match(tag, "a")), all=mvappend(action, user, item, tag),\nc=mvcount(all) | table id, n, s, all, c',
              ["id:string", "n:long", "s:mv", "all:mv", "c:long"],
              lambda e: [e["id"], nulls(lambda t: len(values(t)))(e.get("tag")),
                         nulls(lambda t: mv([v for v in values(t) if "a" in v]))(e.get("tag")),
                         mvappend(e["action"], e.get("user"), e.get("item"), e.get("tag")),
                         len(mvappend(e["action"], e.get("user"), e.get("item"), e.get("tag")))],
              comment="mvfilter keeping nothing is null (id 12's gift); mvappend leaves missing fields out.")
    s.listing("mvdedup-mvsort-over-fields",
              'index=spec | eval d=mvdedup(split(ip, ".")), o=mvsort(split(ip, ".")), u=mvsort(mvappend(user, action, item))\n| table id, d, o, u',
              ["id:string", "d:mv", "o:mv", "u:mv"],
              lambda e: [e["id"], list(dict.fromkeys(e["ip"].split("."))), sorted(e["ip"].split(".")),
                         sorted(mvappend(e.get("user"), e["action"], e.get("item")))],
              comment="mvsort compares text: \"10\" < \"168\" < \"20\"; upper case before lower case (Alice).")
    s.listing("mvzip-over-fields",
              'index=spec item=* | eval z=mvzip(split(ip, "."), split("a,b,c", ",")),\nkv=mvzip(mvappend("user", "item"), mvappend(user, item), "=") | table id, z, kv',
              ["id:string", "z:mv", "kv:mv"],
              lambda e: [e["id"], [a + "," + b for a, b in zip(e["ip"].split("."), ["a", "b", "c"])],
                         ["user=" + e["user"], "item=" + e["item"]]],
              where=lambda e: "item" in e)
    s.listing("mvrange-over-fields",
              "index=spec qty=* | eval up=mvrange(0, qty, 4), down=mvrange(qty, 0, -3) | table id, up, down",
              ["id:string", "up:mv", "down:mv"],
              lambda e: [e["id"], list(range(0, int(e["qty"]), 4)), list(range(int(e["qty"]), 0, -3))],
              where=lambda e: "qty" in e)

    def mvfind(values_, regex):
        return next((i for i, v in enumerate(values_) if re.search(regex, v)), None)

    s.listing("mvindex-mvfind-mvmap-over-fields",
              'index=spec host=web-2 | eval parts=split(ip, ".") | eval tail=mvindex(parts, -2, -1), f=mvfind(parts, "^1[0-9]"),\n'
              'doubled=mvmap(parts, parts*2) | table id, tail, f, doubled',
              ["id:string", "tail:mv", "f:long", "doubled:mv"],
              lambda e: [e["id"], e["ip"].split(".")[-2:], mvfind(e["ip"].split("."), "^1[0-9]"),
                         [int(p) * 2 for p in e["ip"].split(".")]],
              where=lambda e: e["host"] == "web-2",
              comment="mvindex's negative indexes count from the end, its end inclusive; mvfind the first value\nthe regex finds (0-based), null when none; mvmap each value.")
    s.write()


# ---------------------------------------------------------------------------------------------
# conversion

def duration(seconds):
    """Splunk's [D+]HH:MM:SS (the form convert's dur2sec reads back): days only from one day on."""
    assert seconds >= 0, seconds
    days = f"{seconds // 86400}+" if seconds >= 86400 else ""
    return f"{days}{seconds % 86400 // 3600:02d}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


def to_base(text, base):
    try:
        return int(text, base)
    except ValueError:
        return None


def conversion_specs():
    s = Spec("functions-conversion.spl-spec", header("Conversion functions over the shop's fields: tostring (hex, commas, duration), tonumber with bases, printf.\n# bytes=- (id 8) is not a number: bytes*1 is null there."))
    s.listing("tostring-formats-over-fields",
              'index=spec | eval b=bytes*1 | eval h=tostring(b, "hex"), c=tostring(b*1000, "commas"),\nd=tostring(b, "duration"), d30=tostring(b*30, "duration"), days=tostring(b*100, "duration")\n| table id, h, c, d, d30, days',
              ["id:string", "h:string", "c:string", "d:string", "d30:string", "days:string"],
              lambda e: [e["id"]] + ([None] * 5 if num(e["bytes"]) is None else [
                  "0x%X" % num(e["bytes"]), f"{num(e['bytes']) * 1000:,}", duration(num(e["bytes"])),
                  duration(num(e["bytes"]) * 30), duration(num(e["bytes"]) * 100)]),
              comment="A duration of a day or more leads with its days, D+HH:MM:SS: the form the convert\ncommand's dur2sec reads (Search Reference, convert: \"[D+]HH:MM:SS\").")
    s.listing("tonumber-bases-over-fields",
              "index=spec | eval o=tonumber(status, 8), x=tonumber(status, 16), b=tonumber(id, 2), t=tonumber(item, 36)\n| table id, o, x, b, t",
              ["id:string", "o:long", "x:long", "b:long", "t:long"],
              lambda e: [e["id"], to_base(e["status"], 8), to_base(e["status"], 16), to_base(e["id"], 2),
                         nulls(lambda i: to_base(i, 36))(e.get("item"))],
              comment="id in base 2: only 1, 10 and 11 are binary digits; item in base 36 reads letters as digits.")
    s.listing("tonumber-decimal-over-fields",
              "index=spec | eval l=tonumber(latency), b=tonumber(bytes), p=tonumber(ip) | table id, l, b, p",
              ["id:string", "l:double", "b:long", "p:double"],
              lambda e: [e["id"], num(e.get("latency")), num(e["bytes"]), None])
    s.listing("printf-over-fields",
              'index=spec id<7 | eval s=printf("%-8s|%5.2f|%04d|%x|%+d", action, latency, status, bytes, id) | table id, s',
              ["id:string", "s:string"],
              lambda e: [e["id"], "%-8s|%5.2f|%04d|%x|%+d" % (e["action"], num(e["latency"]), num(e["status"]),
                                                            num(e["bytes"]), num(e["id"]))],
              where=lambda e: int(e["id"]) < 7,
              comment="C's conversions (Python's % operator gives the same); no value here is a rounding tie.")
    s.case("printf-search-reference-examples",
           '| makeresults | eval a=printf("%.3A", pi()), c=printf("%c,%c", 65, "Foo"), d=printf("%d,%i,%d", -2, +4, 30)\n| table a, c, d',
           ["a:string", "c:string", "d:string"],
           [[hex_float(math.pi, 3), "%c,%c" % (65, "Foo"[0]), "%d,%i,%d" % (-2, +4, 30)]],
           comment="The Search Reference's own examples (Conversion functions, printf): %A is a floating-point\nnumber in hexadecimal, %c a code point or a text's first character.")
    s.case("printf-rounds-as-c",
           '| makeresults | eval s=printf("%.2f|%.2f|%.0f|%.0f|%.1e|%.2f", 0.125, 2.675, 0.5, 1.5, 0.125, -0.001) | table s',
           ["s:string"],
           [["%.2f|%.2f|%.0f|%.0f|%.1e|%.2f" % (0.125, 2.675, 0.5, 1.5, 0.125, -0.001)]],
           comment="\"Similar to the C sprintf() function\" (Search Reference): the double's exact value rounded,\n"
                   "a tie to the even digit (0.125 is exact: 0.12; 2.675 is 2.67499…: 2.67), as C and Python do.")
    general = "%g|%.3g|%.0g|%#.3g|%G|%.10g|%g|%.2g|%010.3g"
    general_args = (0.00001234, 123456, 2.5, 100, 1.5e-7, 1234567, 0.0001, 0.125, -2.5)
    s.case("printf-general-as-c",
           '| makeresults | eval s=printf("' + general + '", 0.00001234, 123456, 2.5, 100, 1.5e-7, 1234567, 0.0001, 0.125, -2.5)\n| table s',
           ["s:string"],
           [[general % general_args]],
           comment="C's %g: P significant digits (6 by default, 0 taken as 1), the %e form below 10^-4 or from\n"
                   "10^P on, else %f; trailing zeros dropped unless #; the exact value rounded half to even.")
    infinite = "%f|%F|%e|%E|%g|%G|%8f|%-6e|%+f|% G|%#.2f|%010.2f"
    infinite_args = ("1e999", "1e999", "-1e999", "1e999", "-1e999", "1e999", "1e999", "-1e999", "1e999",
                     "1e999", "1e999", "-1e999")
    s.case("printf-infinity-as-c",
           '| makeresults | eval s=printf("' + infinite + '", ' + ", ".join('"%s"' % a for a in infinite_args)
           + ')\n| table s',
           ["s:string"],
           [[infinite.replace("%010", "%10") % tuple(float(a) for a in infinite_args)]],
           comment="Text past a double's range reads as an infinity, which C's printf writes inf, -inf (INF\n"
                   "under %F %E %G), signed and padded with spaces only: the 0 flag does not apply to it\n"
                   "(glibc; Python's % pads it with zeros, so the expected text is Python's without the 0).")
    s.write()


def hex_float(x, precision):
    """C's %.<precision>A: 0X1.<hex digits>P<exponent>, the digits rounded half up (no tie here)."""
    mantissa, exponent = x.hex()[2:].split("p")  # '1.921fb54442d18', '+1'
    whole, digits = mantissa.split(".")
    kept = int(whole + digits[:precision], 16) + (1 if int(digits[precision], 16) >= 8 else 0)
    text = "%X" % kept
    return "0X" + text[0] + "." + text[1:] + "P" + ("+" if not exponent.startswith("-") else "") + exponent.lstrip("+")


# ---------------------------------------------------------------------------------------------
# time

def utc(epoch):
    return datetime.datetime.fromtimestamp(epoch, UTC)


def epoch(dt):
    return int(dt.timestamp())


def subsecond(t, digits):
    """strftime's %3N / %6N: the time's fraction of a second cut (not rounded) to that many digits,
    read from the time as written (a decimal, so no binary float error moves a digit)."""
    written = decimal.Decimal(repr(t))
    fraction = written - int(written)
    return "%0*d" % (digits, int(fraction * 10 ** digits))


def snap_day(t):
    d = utc(t)
    return datetime.datetime(d.year, d.month, d.day, tzinfo=UTC)


def add_months(dt, months):
    month = dt.month - 1 + months
    return dt.replace(year=dt.year + month // 12, month=month % 12 + 1)


def time_specs():
    s = Spec("functions-time.spl-spec", header("Time functions over event times: strftime, strptime, relative_time with snaps.\n# spec_time: 2026-01-30T23:59:59.5Z (a Friday, with half a second), 02-01 00:00 (a Sunday), 02-02 13:30\n# (a Monday), 02-28 12:00 (a Saturday), 03-01 00:00 (a Sunday). Times are UTC."))
    s.listing("strftime-over-events",
              'index=spec_time | eval a=strftime(_time, "%Y-%m-%d %H:%M:%S"), j=strftime(_time, "%j"), b=strftime(_time, "%b %d"),\nz=strftime(_time, "%z"), s=strftime(_time, "%s"), n=strftime(_time, "%3N"), u=strftime(_time, "%6N")\n| table id, a, j, b, z, s, n, u',
              ["id:string", "a:string", "j:string", "b:string", "z:string", "s:string", "n:string", "u:string"],
              lambda e: [e["id"], utc(e["_time"]).strftime("%Y-%m-%d %H:%M:%S"), utc(e["_time"]).strftime("%j"),
                         utc(e["_time"]).strftime("%b %d"), "+0000", str(int(e["_time"])),
                         subsecond(e["_time"], 3), subsecond(e["_time"], 6)],
              source=TIME,
              comment="%s is whole seconds; %3N the milliseconds (500 for id 1), %6N the microseconds.")
    s.listing("strftime-over-shop-events",
              'index=spec host=web-3 | eval d=strftime(_time, "%a %d %b %Y"), h=strftime(_time, "%I:%M %p"), m=strftime(_time, "%H%M%S")\n| table id, d, h, m',
              ["id:string", "d:string", "h:string", "m:string"],
              lambda e: [e["id"], utc(e["_time"]).strftime("%a %d %b %Y"), utc(e["_time"]).strftime("%I:%M %p"),
                         utc(e["_time"]).strftime("%H%M%S")],
              where=lambda e: e["host"] == "web-3")
    s.listing("strptime-over-events",
              'index=spec_time | eval back=strptime(strftime(_time, "%d/%b/%Y:%H:%M:%S"), "%d/%b/%Y:%H:%M:%S"),\n'
              'zoned=strptime(strftime(_time, "%Y-%m-%dT%H:%M:%S") . "+0130", "%Y-%m-%dT%H:%M:%S%z"),\n'
              'milli=strptime(strftime(_time, "%Y-%m-%d %H:%M:%S.%3N"), "%Y-%m-%d %H:%M:%S.%3N") | table id, back, zoned, milli',
              ["id:string", "back:double", "zoned:double", "milli:double"],
              lambda e: [e["id"], int(e["_time"]), int(e["_time"]) - 5400, e["_time"]],
              source=TIME,
              comment="A time read with %z +0130 is 90 minutes before the same clock time in UTC; without %3N the\nhalf second is lost.")

    def snaps(e):
        t = e["_time"]
        day = snap_day(t)
        monday = day - datetime.timedelta(days=day.weekday())
        last_month = add_months(day, -1).replace(day=1)
        quarter = day.replace(month=(day.month - 1) // 3 * 3 + 1, day=1)
        sunday = day - datetime.timedelta(days=(day.weekday() + 1) % 7)
        month_end = add_months(day.replace(day=1), 1) - datetime.timedelta(days=1)
        return [e["id"], epoch(day), epoch(monday), epoch(last_month), epoch(day) + 12 * 3600,
                epoch(day.replace(month=1, day=1)), epoch(quarter), t + 1, epoch(day) - 86400 * 7,
                epoch(sunday), epoch(month_end)]

    s.listing("relative-time-snaps-over-events",
              'index=spec_time | eval d=relative_time(_time, "@d"), w=relative_time(_time, "@w1"), m=relative_time(_time, "-1mon@mon"),\n'
              'h=relative_time(_time, "@d+12h"), y=relative_time(_time, "@y"), q=relative_time(_time, "@q"),\n'
              's=relative_time(_time, "+1s"), wk=relative_time(_time, "-7d@d"), w0=relative_time(_time, "@w0"),\n'
              'last=relative_time(_time, "@mon+1mon-1d") | table id, d, w, m, h, y, q, s, wk, w0, last',
              ["id:string", "d:double", "w:double", "m:double", "h:double", "y:double", "q:double", "s:double", "wk:double",
               "w0:double", "last:double"],
              snaps, source=TIME,
              comment="@w1 snaps to the Monday at or before (a Monday stays), @w0 to the Sunday; -1mon@mon of\n2026-01-30 is 2025-12-01; @mon+1mon-1d is the month's last day (01-31, 02-28, 03-31).")
    s.write()


# ---------------------------------------------------------------------------------------------
# conditional, null tests, types, min/max

def status_class(status):
    n = num(status)
    return "server" if n >= 500 else "client" if n >= 400 else "redirect" if n >= 300 else "ok"


def splunk_max(*args):
    """Splunk's max/min order: numbers as numbers below every text; texts in byte order."""
    present = [a for a in args if a is not None]
    return max(present, key=lambda v: (1, v, 0) if isinstance(v, str) else (0, "", v))


def splunk_min(*args):
    present = [a for a in args if a is not None]
    return min(present, key=lambda v: (1, v, 0) if isinstance(v, str) else (0, "", v))


def conditional_specs():
    s = Spec("functions-conditional.spl-spec", header("Conditional and informational functions over the shop's fields: if, case, coalesce, nullif,\n# isnull/isnotnull, typeof, min/max of numbers and text, null propagation."))
    s.listing("if-over-fields",
              'index=spec | eval speed=if(latency>1, "slow", "fast"), who=if(isnull(user), "anon", user), big=if(bytes>=1000, 1, 0)\n| table id, speed, who, big',
              ["id:string", "speed:string", "who:string", "big:long"],
              lambda e: [e["id"], "slow" if (num(e.get("latency")) or 0) > 1 else "fast", e.get("user", "anon"),
                         1 if num(e["bytes"]) is not None and num(e["bytes"]) >= 1000 else 0],
              comment="A null condition (no latency in 7) takes the else branch; bytes=- (8) is not 1000 or more\nwhether compared as a number or as text.")
    s.listing("case-over-fields",
              'index=spec | eval class=case(status>=500, "server", status>=400, "client", status>=300, "redirect", true(), "ok"),\n'
              'lat=case(latency<0.5, "low", latency<2, "mid") | table id, class, lat',
              ["id:string", "class:string", "lat:string"],
              lambda e: [e["id"], status_class(e["status"]),
                         None if num(e.get("latency")) is None else "low" if num(e["latency"]) < 0.5
                         else "mid" if num(e["latency"]) < 2 else None])
    s.listing("coalesce-nullif-over-fields",
              'index=spec | eval what=coalesce(item, msg, action), who=coalesce(user, "nobody"), n=nullif(user, "alice"),\n'
              's=nullif(status, 200), h=nullif(host, "web-1") | table id, what, who, n, s, h',
              ["id:string", "what:string", "who:string", "n:string", "s:string", "h:string"],
              lambda e: [e["id"], e.get("item") or e.get("msg") or e["action"], e.get("user", "nobody"),
                         None if e.get("user") == "alice" else e.get("user"),
                         None if num(e["status"]) == 200 else e["status"], None if e["host"] == "web-1" else e["host"]],
              comment="nullif(status, 200): the text 200 equals the number 200.")
    s.listing("null-tests-and-typeof-over-fields",
              'index=spec | eval a=if(isnull(latency), "y", "n"), b=if(isnotnull(item), "y", "n"), t=typeof(bytes*1),\n'
              'u=typeof(user), x=typeof(status==200) | table id, a, b, t, u, x',
              ["id:string", "a:string", "b:string", "t:string", "u:string", "x:string"],
              lambda e: [e["id"], "y" if "latency" not in e else "n", "y" if "item" in e else "n",
                         "Number" if num(e["bytes"]) is not None else "Invalid",
                         "String" if "user" in e else "Invalid", "Bool"])
    s.listing("type-tests-of-extracted-fields",
              'index=spec | eval t=typeof(status), b=typeof(bytes), n=if(isnum(latency), "y", "n"), i=if(isint(latency), "y", "n"),\n'
              'd=if(isdouble(latency), "y", "n"), s=if(isstr(bytes), "y", "n"), u=typeof(user), q=typeof(ip)\n'
              '| table id, t, b, n, i, d, s, u, q',
              ["id:string", "t:string", "b:string", "n:string", "i:string", "d:string", "s:string", "u:string",
               "q:string"],
              lambda e: [e["id"], field_type(e["status"]), field_type(e["bytes"]),
                         yes(isinstance(field_number(e.get("latency")), (int, float))),
                         yes(isinstance(field_number(e.get("latency")), int)),
                         yes(isinstance(field_number(e.get("latency")), float)),
                         yes(isinstance(field_number(e["bytes"]), str)), field_type(e.get("user")),
                         field_type(e.get("ip"))],
              comment="A field's text that reads as a number is a Number to the type tests (the value Splunk's\n"
                      "eval types: see ARCHITECTURE.md Decisions); bytes=- (id 8) and an IP address stay String.")
    s.listing("min-max-numbers-and-text-over-fields",
              'index=spec id<8 | eval hi=max(bytes*1, user), lo=min(bytes*1, user, "zzz"), top=max(status*1, latency*100)\n| table id, hi, lo, top',
              ["id:string", "hi:string", "lo:long", "top:double"],
              lambda e: [e["id"], splunk_max(num(e["bytes"]), e["user"]), splunk_min(num(e["bytes"]), e["user"], "zzz"),
                         splunk_max(num(e["status"]), None if "latency" not in e else num(e["latency"]) * 100)],
              where=lambda e: int(e["id"]) < 8,
              comment="Text is greater than any number: max is the user, min the bytes; a missing latency is left out.")
    s.case("min-max-mixed-literals",
           '| makeresults | eval a=max(3, "abc", 10), b=min(3, "abc", 10), c=max("apple", "Zebra"), d=min(2.5, 10, "x"),\ne=max(9, 10)\n| table a, b, c, d, e',
           ["a:string", "b:long", "c:string", "d:double", "e:long"],
           [[splunk_max(3, "abc", 10), splunk_min(3, "abc", 10), splunk_max("apple", "Zebra"), splunk_min(2.5, 10, "x"),
             splunk_max(9, 10)]],
           comment='Byte order puts "Zebra" before "apple"; numbers compare as numbers (10 > 9).')

    def propagate(e):
        user, latency = e.get("user"), e.get("latency")
        return [e["id"], nulls(str.upper)(user), nulls(substr)(user, 1, 2),
                nulls(lambda l: round(num(l) * 2))(latency), nulls(lambda u, l: u + "-" + l)(user, latency),
                nulls(lambda u: 1)(user), nulls(len)(latency), nulls(lambda u: hashlib.md5(u.encode()).hexdigest())(user)]

    s.listing("null-propagation-over-fields",
              'index=spec id>=7 id<=10 | eval u=upper(user), s=substr(user, 1, 2), r=round(latency*2), j=user . "-" . latency,\n'
              'c=mvcount(user), l=len(latency), h=md5(user) | table id, u, s, r, j, c, l, h',
              ["id:string", "u:string", "s:string", "r:double", "j:string", "c:long", "l:long", "h:string"],
              propagate, where=lambda e: 7 <= int(e["id"]) <= 10,
              comment="id 7 has no latency, id 10 no user: what reads them is null.")
    s.write()


# ---------------------------------------------------------------------------------------------
# comparison, regex, crypto

def like(value, pattern):
    regex = "".join(".*" if c == "%" else "." if c == "_" else re.escape(c) for c in pattern)
    return re.fullmatch(regex, value, re.S) is not None


def cidr(block, ip):
    return ipaddress.ip_address(ip) in ipaddress.ip_network(block)


def yn(flag):
    return "y" if flag else "n"


def compare_specs():
    s = Spec("functions-compare.spl-spec", header("Comparison, regex and hash functions over the shop's fields: match, like, in, cidrmatch,\n# searchmatch, md5, sha1, sha256, sha512."))
    s.listing("match-like-over-fields",
              'index=spec | eval a=if(match(ip, "^10\\."), "y", "n"), b=if(match(user, "^[a-c]"), "y", "n"), c=if(match(msg, "fail"), "y", "n"),\n'
              'd=if(like(ip, "10.0.0._"), "y", "n"), e=if(like(user, "%e%"), "y", "n"), f=if(action LIKE "%out", "y", "n")\n| table id, a, b, c, d, e, f',
              ["id:string", "a:string", "b:string", "c:string", "d:string", "e:string", "f:string"],
              lambda e: [e["id"], yn(re.search(r"^10\.", e["ip"])), yn(re.search("^[a-c]", e.get("user", "-"))),
                         yn(re.search("fail", e.get("msg", ""))), yn(like(e["ip"], "10.0.0._")),
                         yn("user" in e and like(e["user"], "%e%")), yn(like(e["action"], "%out"))],
              comment="match is a regex search (case-sensitive: Alice does not match ^[a-c]); like's _ is one\ncharacter and . is literal; a missing field gives a null condition, so \"n\".")
    s.listing("in-cidrmatch-over-fields",
              'index=spec | eval i=if(in(status, "404", "503"), "y", "n"), j=if(item IN ("pen", "lamp"), "y", "n"),\n'
              'a=if(cidrmatch("10.0.0.0/24", ip), "y", "n"), b=if(cidrmatch("172.16.0.0/12", ip), "y", "n"),\n'
              'c=if(cidrmatch("192.168.1.16/28", ip), "y", "n"), d=if(cidrmatch("0.0.0.0/0", ip), "y", "n"),\n'
              'h=if(cidrmatch("0.0.0.0/0", host), "y", "n") | table id, i, j, a, b, c, d, h',
              ["id:string", "i:string", "j:string", "a:string", "b:string", "c:string", "d:string", "h:string"],
              lambda e: [e["id"], yn(e["status"] in ("404", "503")), yn(e.get("item") in ("pen", "lamp")),
                         yn(cidr("10.0.0.0/24", e["ip"])), yn(cidr("172.16.0.0/12", e["ip"])),
                         yn(cidr("192.168.1.16/28", e["ip"])), yn(cidr("0.0.0.0/0", e["ip"])), "n"],
              comment="A host name is no IPv4 address: no block holds it.")
    s.listing("searchmatch-over-events",
              'index=spec | eval s=if(searchmatch("user=alice"), "y", "n"), t=if(searchmatch("status>=500 OR item=pen"), "y", "n"),\n'
              'w=if(searchmatch("user=a* item=l*"), "y", "n") | table id, s, t, w',
              ["id:string", "s:string", "t:string", "w:string"],
              lambda e: [e["id"], yn(e.get("user", "").lower() == "alice"),
                         yn(num(e["status"]) >= 500 or e.get("item") == "pen"),
                         yn(e.get("user", "").lower().startswith("a") and e.get("item", "").lower().startswith("l"))],
              comment="A search's field value matches without case: user=alice matches Alice (id 6).")
    s.listing("hashes-over-fields",
              'index=spec | eval m=md5(user), s1=sha1(action), s2=sha256(host . ":" . id), s5=substr(sha512(ip), 1, 16),\n'
              'st=md5(status) | table id, m, s1, s2, s5, st',
              ["id:string", "m:string", "s1:string", "s2:string", "s5:string", "st:string"],
              lambda e: [e["id"], nulls(lambda u: hashlib.md5(u.encode()).hexdigest())(e.get("user")),
                         hashlib.sha1(e["action"].encode()).hexdigest(),
                         hashlib.sha256((e["host"] + ":" + e["id"]).encode()).hexdigest(),
                         hashlib.sha512(e["ip"].encode()).hexdigest()[:16], hashlib.md5(e["status"].encode()).hexdigest()],
              comment="Hashes of the UTF-8 text, lower-case hex; the hash of a missing value is null.")
    s.case("hashes-of-empty-and-numbers",
           '| makeresults | eval a=md5(""), b=sha1(tostring(200)), c=sha256("a b")\n| table a, b, c',
           ["a:string", "b:string", "c:string"],
           [[hashlib.md5(b"").hexdigest(), hashlib.sha1(b"200").hexdigest(), hashlib.sha256(b"a b").hexdigest()]])
    s.write()


# ---------------------------------------------------------------------------------------------
# JSON, bitwise, ipmask, validate, eval's sum/avg, type tests

BITS = (1 << 53) - 1


def bits(value):
    """A bit string of the Search Reference's bitwise functions: a whole number 0..2^53-1, else None."""
    n = num(value)
    if n is None or isinstance(n, float) and not n.is_integer():
        return None
    n = int(n)
    return n if 0 <= n <= BITS else None


def bitwise(op, *args):
    """bit_and/bit_or/bit_xor folded left to right; None when any argument is not a bit string."""
    values = [bits(a) for a in args]
    if any(v is None for v in values):
        return None
    result = values[0]
    for v in values[1:]:
        result = result & v if op == "and" else result | v if op == "or" else result ^ v
    return result


def ipmask(mask, ip):
    try:
        m, a = ipaddress.IPv4Address(mask), ipaddress.IPv4Address(ip)
    except ValueError:
        return None
    return str(ipaddress.IPv4Address(int(m) & int(a)))


def numbers_of(*args):
    """Every value of every argument that is a number (a multivalue's each), others left out."""
    out = []
    for a in args:
        for v in values(a) or []:
            n = num(v)
            if n is not None:
                out.append(n)
    return out


def eval_sum(*args):
    ns = numbers_of(*args)
    return sum(ns) if ns else None


def eval_avg(*args):
    """sum/count with eval's division: whole when it divides evenly, else a fraction."""
    ns = numbers_of(*args)
    if not ns:
        return None
    total = sum(ns)
    if all(isinstance(n, int) for n in ns):
        return total // len(ns) if total % len(ns) == 0 else total / len(ns)
    mean = total / len(ns)
    return int(mean) if mean.is_integer() else mean


def validate(*pairs):
    """The message of the first condition that does not hold (a null condition does not)."""
    for condition, message in zip(pairs[::2], pairs[1::2]):
        if condition is not True:
            return message
    return None


def compact(value):
    return json.dumps(value, separators=(",", ":"))


def json_bits_specs():
    s = Spec("functions-json-bits.spl-spec", header(
        "JSON, bitwise, ipmask, validate, eval's sum/avg and the type tests over the shop's fields.\n"
        "# bytes=- (id 8) is not a number; id 2's tag is a multivalue; id 10 has no user, id 7 no latency."))
    s.listing("bitwise-over-fields",
              "index=spec | eval a=bit_and(status, 255), o=bit_or(id, 256), x=bit_xor(bytes, 4095), n=bit_not(id, 15),\n"
              "l=bit_shift_left(id, 3), r=bit_shift_right(bytes, 2) | table id, a, o, x, n, l, r",
              ["id:string", "a:long", "o:long", "x:long", "n:long", "l:long", "r:long"],
              lambda e: [e["id"], bitwise("and", e["status"], 255), bitwise("or", e["id"], 256),
                         bitwise("xor", e["bytes"], 4095), nulls(lambda i: ~i & 15)(bits(e["id"])),
                         nulls(lambda i: i << 3)(bits(e["id"])), nulls(lambda b: b >> 2)(bits(e["bytes"]))],
              comment="Field text that reads as a whole number is a bit string; bytes=- is not: null.")
    s.case("bitwise-search-reference-examples-and-range",
           "| makeresults | eval a=bit_and(12, 9), o=bit_or(4, 2), x=bit_xor(12, 10, 1), n=bit_not(9, 15),\n"
           "l=bit_shift_left(1, 10), r=bit_shift_right(1024, 3), neg=bit_and(-1, 1), frac=bit_or(2.5, 1),\n"
           "big=bit_xor(9007199254740992, 1), top=bit_or(9007199254740991, 0) | table a, o, x, n, l, r, neg, frac, big, top",
           ["a:long", "o:long", "x:long", "n:long", "l:long", "r:long", "neg:long", "frac:long", "big:long", "top:long"],
           [[bitwise("and", 12, 9), bitwise("or", 4, 2), bitwise("xor", 12, 10, 1), ~9 & 15, 1 << 10, 1024 >> 3,
             bitwise("and", -1, 1), bitwise("or", 2.5, 1), bitwise("xor", 2 ** 53, 1), bitwise("or", BITS, 0)]],
           comment="bit_and(12, 9) is 8 and bit_or(4, 2) is 6 (the Search Reference's examples); a negative\n"
                   "number, a fraction or one past 53 bits is null (\"numbers that are negative or greater\n"
                   "than 53 bits return null\").")
    s.listing("ipmask-over-fields",
              'index=spec | eval c=ipmask("255.255.255.0", ip), b=ipmask("255.255.0.0", ip), o=ipmask("0.255.0.224", ip)\n'
              "| table id, c, b, o",
              ["id:string", "c:string", "b:string", "o:string"],
              lambda e: [e["id"], ipmask("255.255.255.0", e["ip"]), ipmask("255.255.0.0", e["ip"]),
                         ipmask("0.255.0.224", e["ip"])])
    s.case("ipmask-search-reference-examples",
           '| makeresults | eval a=ipmask("255.255.255.0", "10.20.30.120"), b=ipmask("0.255.0.224", "10.20.30.120"),\n'
           'bad=ipmask("255.255.0", "10.20.30.120") | table a, b, bad',
           ["a:string", "b:string", "bad:string"],
           [[ipmask("255.255.255.0", "10.20.30.120"), ipmask("0.255.0.224", "10.20.30.120"),
             ipmask("255.255.0", "10.20.30.120")]],
           comment="10.20.30.0 and 0.20.0.96, as the Search Reference's examples say; a mask that is not\n"
                   "a dotted quad answers nothing.")

    def validated(e):
        user, status, b = e.get("user"), num(e["status"]), num(e["bytes"])
        return [e["id"], validate(user is not None, "no user", status < 500, "server error",
                                  None if b is None else b >= 10, "bad bytes")]

    s.listing("validate-over-fields",
              'index=spec | eval v=validate(isnotnull(user), "no user", status < 500, "server error", bytes*1 >= 10, "bad bytes")\n'
              "| table id, v",
              ["id:string", "v:string"], validated,
              comment="The first condition that is not true names the problem; all true: null. bytes*1 is\n"
                      "null for bytes=-, so its comparison does not hold.")
    s.listing("sum-avg-over-fields",
              "index=spec | eval s=sum(price, qty, tag), a=avg(bytes, latency), t=sum(tag, status, id) | table id, s, a, t",
              ["id:string", "s:double", "a:double", "t:long"],
              lambda e: [e["id"], eval_sum(e.get("price"), e.get("qty"), e.get("tag")),
                         eval_avg(e["bytes"], e.get("latency")), eval_sum(e.get("tag"), e["status"], e["id"])],
              comment="Values that are not numbers (tag, bytes=-) and missing ones are left out; no number: null.\n"
                      "avg is the sum over how many numbers counted (Statistical eval functions).")
    s.case("sum-avg-search-reference-example",
           '| makeresults | eval a=5.0, b="9", x=avg(a, b, c), y=sum(a, b, c), z=avg(1, 2) | table x, y, z',
           ["x:double", "y:double", "z:double"],
           [[eval_avg(5.0, "9", None), eval_sum(5.0, "9", None), eval_avg(1, 2)]],
           comment="avg(a, b, c) of a=5.0, b=\"9\" and no c is 7 (the Search Reference's example).")
    s.listing("type-tests-over-fields",
              'index=spec | eval b=if(isbool(status==200), "y", "n"), s=if(isbool(status), "y", "n"),\n'
              'd=if(isdouble(latency*1), "y", "n"), ar=if(isarray(tag), "y", "n"), jo=if(isobject(json_object("id", id)), "y", "n"),\n'
              'ja=if(isarray(json_array(id)), "y", "n"), no=if(isobject(user), "y", "n") | table id, b, s, d, ar, jo, ja, no',
              ["id:string", "b:string", "s:string", "d:string", "ar:string", "jo:string", "ja:string", "no:string"],
              lambda e: [e["id"], "y", "n", yn(isinstance(num(e.get("latency")), float)),
                         yn(isinstance(e.get("tag"), list)), "y", "y", "n"],
              comment="A comparison is a Boolean, a field's text is not; latency*1 is a double where latency\n"
                      "has a fraction; a multivalue is an array, as json_array's text is.")

    def built(e):
        obj = {"id": num(e["id"]), "user": e.get("user", "none"), "tags": e.get("tag", [])}
        if isinstance(obj["tags"], str):
            obj["tags"] = obj["tags"]
        text = compact(obj)
        tags = e.get("tag")
        return [e["id"], text, compact(list(obj)), obj["user"], "y",
                None if tags is None else compact(values(tags))]

    s.listing("json-build-and-read-over-fields",
              'index=spec | eval j=json_object("id", id*1, "user", coalesce(user, "none"), "tags", coalesce(tag, json_array()))\n'
              '| eval k=json_keys(j), u=json_extract(j, "user"), v=if(json_valid(j), "y", "n"), m=mv_to_json_array(tag)\n'
              "| table id, j, k, u, v, m",
              ["id:string", "j:string", "k:string", "u:string", "v:string", "m:string"], built,
              comment="A multivalue is a JSON array, a single value itself; a JSON array's text is embedded\n"
                      "as the array; keys in the order given.")
    s.write()


if __name__ == "__main__":
    text_specs()
    multivalue_specs()
    conversion_specs()
    time_specs()
    conditional_specs()
    compare_specs()
    json_bits_specs()
