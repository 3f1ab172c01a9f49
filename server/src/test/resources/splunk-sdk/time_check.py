"""Asks a live Quarry for aggregations over _time with Splunk's own Python SDK (splunk-sdk on PyPI)
and prints what it saw as one JSON object. Run by SplunkSdkTimeTest: python time_check.py HOST PORT
PASSWORD"""
import json
import sys
import time

import splunklib.client as client
import splunklib.results as results

host, port, password = sys.argv[1], int(sys.argv[2]), sys.argv[3]

FUNCTIONS = ["min", "max", "earliest", "latest", "first", "last", "range", "values", "avg"]
EVERY_FUNCTION = "search index=main | stats " + ", ".join(
    "%s(_time) AS %s" % (f, f) for f in FUNCTIONS) + " by host"


def rows(stream):
    return [dict(r) for r in results.JSONResultsReader(stream) if isinstance(r, dict)]


out = {}
service = client.connect(host=host, port=port, scheme="http", username="admin", password=password)

out["export"] = rows(service.jobs.export(EVERY_FUNCTION, output_mode="json"))
out["oneshot"] = rows(service.jobs.oneshot(EVERY_FUNCTION, output_mode="json"))

job = service.jobs.create(EVERY_FUNCTION)
deadline = time.time() + 30
while not job.is_done():
    if time.time() > deadline:
        raise SystemExit("job did not finish")
    time.sleep(0.05)
out["jobJson"] = rows(job.results(output_mode="json"))
out["jobXml"] = [dict(r) for r in results.ResultsReader(job.results()) if isinstance(r, dict)]
job.cancel()

# each function alone, over the db events only
out["each"] = {}
for f in FUNCTIONS:
    found = rows(service.jobs.oneshot(
        "search index=main host=db | stats %s(_time) AS v" % f, output_mode="json"))
    out["each"][f] = found[0].get("v") if found else None

out["events"] = [r.get("_time") for r in rows(service.jobs.oneshot(
    "search index=main host=db | table _time", output_mode="json"))]
out["timechart"] = rows(service.jobs.oneshot(
    "search index=main | timechart span=1h count, max(_time) AS newest", output_mode="json"))
out["where"] = rows(service.jobs.oneshot(
    "search index=main | where _time >= 1767751200.25 | stats count", output_mode="json"))

print(json.dumps(out, sort_keys=True))
