"""Manages users of a live Quarry with Splunk's own Python SDK (splunk-sdk on PyPI) and prints
what it saw as one JSON object. Run by SplunkSdkTest: python users.py HOST PORT PASSWORD"""
import json
import sys

import splunklib.client as client
import splunklib.results as results
from splunklib.binding import AuthenticationError, HTTPError

host, port, password = sys.argv[1], int(sys.argv[2]), sys.argv[3]


def rows(stream):
    return [dict(r) for r in results.JSONResultsReader(stream) if isinstance(r, dict)]


def connect(user, secret):
    return client.connect(host=host, port=port, scheme="http", username=user, password=secret)


def can_log_in(user, secret):
    try:
        connect(user, secret)
        return True
    except AuthenticationError:
        return False


out = {}
service = connect("admin", password)
carol = service.users.create("Carol", "carol-password-1", ["user"])
out["created"] = carol.name
out["roles"] = list(carol.roles)
out["userNames"] = sorted(u.name for u in service.users)
out["roleNames"] = sorted(r.name for r in service.roles)

as_carol = connect("carol", "carol-password-1")
out["carolSearch"] = rows(as_carol.jobs.oneshot("search index=main | stats count", output_mode="json"))
out["carolSees"] = sorted(u.name for u in as_carol.users)
try:
    as_carol.users.create("dave", "dave-password-1", ["user"])
    out["carolCreates"] = "accepted"
except HTTPError as e:
    out["carolCreates"] = e.status

carol.update(password="carol-password-2")
out["oldPassword"] = can_log_in("carol", "carol-password-1")
out["newPassword"] = can_log_in("carol", "carol-password-2")
service.users.delete("carol")
out["deleted"] = "carol" not in service.users
out["afterDelete"] = can_log_in("carol", "carol-password-2")

# roles: created with Splunk's fields, granted a capability, given to a user, deleted
ops = service.roles.create("Ops", srchIndexesAllowed=["main"], imported_roles=["user"])
out["roleCreated"] = ops.name
out["roleIndexes"] = list(ops["srchIndexesAllowed"])
out["roleImports"] = list(ops["imported_roles"])
ops.grant("edit_lookups")
ops.refresh()
out["roleCapabilities"] = list(ops.capabilities)
service.users.create("erin", "erin-password-1", ["ops"])
as_erin = connect("erin", "erin-password-1")
out["erinSearch"] = rows(as_erin.jobs.oneshot("search index=main | stats count", output_mode="json"))
try:
    service.roles.delete("ops")
    out["deleteInUse"] = "accepted"
except HTTPError as e:
    out["deleteInUse"] = e.status
service.users.delete("erin")
service.roles.delete("ops")
out["roleDeleted"] = "ops" not in service.roles
print(json.dumps(out, sort_keys=True))
