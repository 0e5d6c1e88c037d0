#!/usr/bin/env python3
"""Lists the operations of schemas/openapi.yaml as JSON [{"method", "path", "statuses"}], after
checking each one declares its answers. The Swift test compares the list with the router's."""
import json
import sys

import yaml

spec = yaml.safe_load(open(sys.argv[1] if len(sys.argv) > 1 else "schemas/openapi.yaml"))
assert spec.get("openapi", "").startswith("3.1"), "schemas/openapi.yaml must be OpenAPI 3.1"
operations = []
for path, item in sorted(spec["paths"].items()):
    for method in ("get", "put", "post", "delete", "patch", "head", "options"):
        if method in item:
            responses = item[method].get("responses") or {}
            assert responses, f"{method.upper()} {path} declares no responses"
            operations.append({"method": method, "path": path, "statuses": sorted(responses)})
json.dump(operations, sys.stdout)
