"""Reads multivalue results from a live Quarry with Splunk's own Python SDK (splunk-sdk on PyPI)
and prints what it saw as one JSON object. Run by SplunkSdkMultivalueTest:
python multivalue.py HOST PORT PASSWORD"""
import json
import sys
import time

import splunklib.client as client
import splunklib.results as results

host, port, password = sys.argv[1], int(sys.argv[2]), sys.argv[3]

STATS = "search index=main | stats values(method) AS methods, list(method) AS all, count"
SPLIT = 'search index=main | eval parts=split(tags, ":") | table n, parts'
MVAPPEND = "search index=main | eval m=mvappend(tonumber(x), tonumber(y)) | table n, m"


def rows(stream):
    return [dict(r) for r in results.JSONResultsReader(stream) if isinstance(r, dict)]


def xml_rows(stream):
    return [dict(r) for r in results.ResultsReader(stream) if isinstance(r, dict)]


out = {}
service = client.connect(host=host, port=port, scheme="http", username="admin", password=password)

out["exportStats"] = rows(service.jobs.export(STATS, output_mode="json"))
out["exportSplit"] = rows(service.jobs.export(SPLIT, output_mode="json"))
out["oneshotMvappend"] = rows(service.jobs.oneshot(MVAPPEND, output_mode="json"))

job = service.jobs.create(SPLIT)
deadline = time.time() + 30
while not job.is_done():
    if time.time() > deadline:
        raise SystemExit("job did not finish")
    time.sleep(0.05)
out["jobJson"] = rows(job.results(output_mode="json"))
out["jobXml"] = xml_rows(job.results())
job.cancel()

print(json.dumps(out, sort_keys=True))
