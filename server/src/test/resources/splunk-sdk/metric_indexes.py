"""Lists a Quarry with an event and a metric index, and reads an export with Quarry's costs line,
with Splunk's own Python SDK (splunk-sdk on PyPI); prints what it saw as one JSON object. Run by
SplunkSdkMetricIndexTest: python metric_indexes.py HOST PORT PASSWORD"""
import json
import sys

import splunklib.client as client
import splunklib.results as results
from splunklib.binding import HTTPError

host, port, password = sys.argv[1], int(sys.argv[2]), sys.argv[3]
service = client.connect(host=host, port=port, scheme="http", username="admin", password=password)
out = {}
# service.indexes as a Splunk user lists them: no datatype, so event indexes alone
out["defaultNames"] = sorted(i.name for i in service.indexes)
out["metricNames"] = sorted(i.name for i in service.indexes.list(datatype="metric"))
out["allNames"] = sorted(i.name for i in service.indexes.list(datatype="all"))
# one by name, whatever its type (the Atom XML the SDK reads entities from)
m = service.indexes["m"]
out["metricDatatype"] = m["datatype"]
out["metricPoints"] = int(m["totalEventCount"])
main = service.indexes["main"]
out["mainDatatype"] = main["datatype"]
out["mainJournalBytes"] = int(main["journalBytes"])
out["mainBytesByKind"] = sorted(dict(main["bytesByKind"]).keys())
try:
    service.indexes.list(datatype="events")
    out["badDatatype"] = "accepted"
except HTTPError as e:
    out["badDatatype"] = e.status


def export(**kwargs):
    rows, messages = [], []
    stream = service.jobs.export("search index=main | stats count", output_mode="json", **kwargs)
    for item in results.JSONResultsReader(stream):
        if isinstance(item, results.Message):
            messages.append([item.type, item.message])
        elif isinstance(item, dict):
            rows.append(dict(item))
    return {"rows": rows, "messages": messages}


out["export"] = export()
out["exportWithCosts"] = export(quarry_costs="true")
print(json.dumps(out, sort_keys=True))
