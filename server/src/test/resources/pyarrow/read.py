"""Reads Quarry's Arrow stream with pyarrow and prints it as JSON (schema types, then rows).
Run by ArrowResultsTest: python read.py URL PASSWORD QUERY COMPRESSION"""
import base64
import json
import sys
import urllib.request

import pyarrow as pa

url, password, query, compression = sys.argv[1:5]
request = urllib.request.Request(
    url + "/api/v1/search",
    data=json.dumps({"query": query, "compression": compression}).encode(),
    headers={
        "Accept": "application/vnd.apache.arrow.stream",
        "Content-Type": "application/json",
        "Authorization": "Basic " + base64.b64encode(("admin:" + password).encode()).decode(),
    },
    method="POST",
)
with urllib.request.urlopen(request) as response:
    table = pa.ipc.open_stream(response.read()).read_all()
print(json.dumps({
    "types": {field.name: str(field.type) for field in table.schema},
    "rows": [[row[name] for name in table.column_names] for row in table.to_pylist()],
    "batches": len(table.to_batches()),
}, default=str))
