"""Lists indexes and submits events to a live Quarry with Splunk's own Python SDK (splunk-sdk on
PyPI) and prints what it saw as one JSON object. Run by SplunkSdkTest:
python indexes.py HOST PORT PASSWORD"""
import json
import sys

import splunklib.client as client
import splunklib.results as results
from splunklib.binding import HTTPError

host, port, password = sys.argv[1], int(sys.argv[2]), sys.argv[3]


def rows(stream):
    return [dict(r) for r in results.JSONResultsReader(stream) if isinstance(r, dict)]


out = {}
service = client.connect(host=host, port=port, scheme="http", username="admin", password=password)
out["indexNames"] = sorted(i.name for i in service.indexes)
main = service.indexes["main"]
before = int(main["totalEventCount"])
out["datatype"] = main["datatype"]
main.submit("2026-01-01 00:00:05 status=404 id=submitted 100%", sourcetype="sdk", host="sdk-host")
out["submitted"] = rows(service.jobs.oneshot(
    "search index=main id=submitted | table host sourcetype source status", output_mode="json"))
main.refresh()
out["added"] = int(main["totalEventCount"]) - before
try:
    service.indexes["nosuch"]
    out["missing"] = "found"
except KeyError:
    out["missing"] = "KeyError"
try:
    service.indexes.create("created")
    out["create"] = "accepted"
except HTTPError as e:
    out["create"] = e.status
print(json.dumps(out, sort_keys=True))
