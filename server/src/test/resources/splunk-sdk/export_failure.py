"""Reads an export whose search fails after its first rows, as Splunk's Python SDK reads one:
prints {"rows": <results read>, "messages": [[type, text], ...]} as the last line."""

import json
import sys

import splunklib.client as client
import splunklib.results as results

host, port, password, query = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
service = client.connect(host=host, port=port, scheme="http", username="admin", password=password)
rows = 0
messages = []
for item in results.JSONResultsReader(service.jobs.export(query, output_mode="json")):
    if isinstance(item, results.Message):
        messages.append([item.type, item.message])
    elif isinstance(item, dict):
        rows += 1
print(json.dumps({"rows": rows, "messages": messages}))
