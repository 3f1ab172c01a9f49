"""Drives a live Quarry with Splunk's own Python SDK (splunk-sdk on PyPI) and prints what it saw
as one JSON object. Run by SplunkSdkTest: python check.py HOST PORT PASSWORD"""
import json
import sys
import time

import splunklib.client as client
import splunklib.results as results
from splunklib.binding import AuthenticationError, HTTPError

host, port, password = sys.argv[1], int(sys.argv[2]), sys.argv[3]


def rows(stream):
    return [dict(r) for r in results.JSONResultsReader(stream) if isinstance(r, dict)]


out = {}
service = client.connect(host=host, port=port, scheme="http", username="admin", password=password)
out["version"] = service.info["version"]

out["oneshot"] = rows(
    service.jobs.oneshot("search index=main | stats count by status | sort status", output_mode="json"))

job = service.jobs.create("search index=main status=500 | stats count")
deadline = time.time() + 30
while not job.is_done():
    if time.time() > deadline:
        raise SystemExit("job did not finish")
    time.sleep(0.05)
out["job"] = rows(job.results(output_mode="json"))
out["jobXml"] = [dict(r) for r in results.ResultsReader(job.results()) if isinstance(r, dict)]
out["resultCount"] = int(job["resultCount"])
out["dispatchState"] = job["dispatchState"]
out["listed"] = job.sid in [j.sid for j in service.jobs.list()]
job.cancel()

out["export"] = rows(service.jobs.export("search index=main | stats count", output_mode="json"))

try:
    client.connect(host=host, port=port, scheme="http", username="admin", password="wrong")
    out["badPassword"] = "accepted"
except AuthenticationError:
    out["badPassword"] = "AuthenticationError"

try:
    service.jobs.oneshot("search index=main | nosuchcommand", output_mode="json")
    out["badQuery"] = "accepted"
except HTTPError as e:
    out["badQuery"] = e.status

print(json.dumps(out, sort_keys=True))
