"""Manages search macros and saved searches of a live Quarry with Splunk's own Python SDK
(splunk-sdk on PyPI) and prints what it saw as one JSON object. Run by SplunkSdkTest:
python knowledge.py HOST PORT PASSWORD"""
import json
import sys
import time

import splunklib.client as client
import splunklib.results as results
from splunklib.binding import HTTPError

host, port, password = sys.argv[1], int(sys.argv[2]), sys.argv[3]


def rows(stream):
    return [dict(r) for r in results.JSONResultsReader(stream) if isinstance(r, dict)]


def finished(job):
    deadline = time.time() + 30
    while not job.is_done():
        if time.time() > deadline:
            raise SystemExit("job did not finish")
        time.sleep(0.05)
    return job


out = {}
service = client.connect(host=host, port=port, scheme="http", username="admin", password=password)

# search macros: service.macros is configs/conf-macros
errors = service.macros.create("errors_only", "status=500")
out["macroCreated"] = errors.name
service.macros.create("by_field(1)", "stats count by $f$", args="f")
out["macroArgs"] = service.macros["by_field(1)"].args
out["macroNames"] = sorted(m.name for m in service.macros)
out["macroSearch"] = rows(service.jobs.oneshot(
    "search index=main `errors_only` | `by_field(status)`", output_mode="json"))
errors.update(definition="status=200")
out["macroUpdated"] = service.macros["errors_only"].definition
service.macros.delete("errors_only")
out["macroDeleted"] = "errors_only" not in service.macros

# saved searches
saved = service.saved_searches.create("errors", "search index=main status=500 | stats count")
out["savedName"] = saved.name
out["savedSearch"] = saved["search"]
out["savedListed"] = "errors" in [s.name for s in service.saved_searches]
job = finished(saved.dispatch())
out["dispatched"] = rows(job.results(output_mode="json"))
out["history"] = [j.sid for j in saved.history()] == [job.sid]
saved.update(search="search index=main status=200 | stats count")
saved.refresh()
out["savedUpdated"] = saved["search"]
out["savedsearchCommand"] = rows(service.jobs.oneshot("| savedsearch errors", output_mode="json"))
try:
    service.saved_searches.create("errors", "search index=main")
    out["duplicate"] = "accepted"
except HTTPError as e:
    out["duplicate"] = e.status
try:
    service.saved_searches["nope"]
    out["missing"] = "found"
except KeyError:
    out["missing"] = "KeyError"
service.saved_searches.delete("errors")
out["savedDeleted"] = "errors" not in service.saved_searches

print(json.dumps(out, sort_keys=True))
