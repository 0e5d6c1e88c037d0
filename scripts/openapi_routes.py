#!/usr/bin/env python3
"""Lists the operations of schemas/openapi.yaml as JSON [{"method", "path", "statuses", "access"}],
after checking each one declares its answers and who may call it (`x-access`). The Swift tests
compare the list with the router's, and walk every operation with every kind of caller."""
import json
import re
import sys

import yaml

spec = yaml.safe_load(open(sys.argv[1] if len(sys.argv) > 1 else "schemas/openapi.yaml"))
assert spec.get("openapi", "").startswith("3.1"), "schemas/openapi.yaml must be OpenAPI 3.1"
# public | page:APP | key:APP:SCOPE | person:APP:ROLES | key-or-person:APP:SCOPE | key-and-person:APP:SCOPE
# (APP `*`: any app's, for a service every app shares; ROLES `*` or a comma list; SCOPE may be empty).
ACCESS = re.compile(r"^(public|page:[a-z*]+|(key|key-or-person|key-and-person):[a-z*]+:[a-z:-]*|person:[a-z]+:(\*|[a-z,]+))$")
operations = []
for path, item in sorted(spec["paths"].items()):
    for method in ("get", "put", "post", "delete", "patch", "head", "options"):
        if method in item:
            responses = item[method].get("responses") or {}
            assert responses, f"{method.upper()} {path} declares no responses"
            access = item[method].get("x-access")
            # `/api/{app}/…`: one operation for each app in `x-apps`, served at its own path (every app's sign-in).
            apps = item[method].get("x-apps")
            assert (apps is not None) == ("{app}" in path), f"{method.upper()} {path}: x-apps goes with an {{app}} path and only there"
            for app in apps or [None]:
                concrete, rule = (path, access) if app is None else (path.replace("{app}", app), (access or "").replace("{app}", app))
                assert rule and ACCESS.match(rule), f"{method.upper()} {concrete} declares no x-access rule (who may call it), or one of no known form: {rule!r}"
                operations.append({"method": method, "path": concrete, "statuses": sorted(responses), "access": rule})
json.dump(operations, sys.stdout)
