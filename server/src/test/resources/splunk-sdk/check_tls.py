"""Splunk's Python SDK against a Quarry serving HTTPS, once verifying the server's certificate against
the CA Quarry generated and once with verify=False; prints what it saw as one JSON object.
Run by SplunkSdkTlsTest: python check_tls.py HOST PORT PASSWORD CA_FILE"""
import json
import ssl
import sys

import splunklib.client as client
import splunklib.results as results

host, port, password, ca_file = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]


def rows(stream):
    return [dict(r) for r in results.JSONResultsReader(stream) if isinstance(r, dict)]


out = {}
# trusting only Quarry's CA, with OpenSSL's strict checks (the default since Python 3.13)
strict = ssl.create_default_context(cafile=ca_file)
strict.verify_flags |= ssl.VERIFY_X509_STRICT
verified = client.connect(host=host, port=port, scheme="https", username="admin", password=password,
                          verify=True, context=strict)
out["version"] = verified.info["version"]
out["oneshot"] = rows(verified.jobs.oneshot("search index=main | stats count", output_mode="json"))
out["export"] = rows(verified.jobs.export("search index=main status=500 | stats count", output_mode="json"))

unverified = client.connect(host=host, port=port, scheme="https", username="admin", password=password,
                            verify=False)
out["unverified"] = rows(unverified.jobs.oneshot("search index=main | stats count", output_mode="json"))

try:
    client.connect(host=host, port=port, scheme="https", username="admin", password=password,
                   verify=True, context=ssl.create_default_context())
    out["untrusted"] = "connected"
except ssl.SSLError as e:
    out["untrusted"] = type(e).__name__

print(json.dumps(out))
