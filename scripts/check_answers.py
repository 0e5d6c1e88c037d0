#!/usr/bin/env python3
"""Holds real answers to schemas/openapi.yaml: reads [{"method", "path", "status", "request", "response"}]
as JSON on stdin (`path` as the description writes it, `request` and `response` parsed bodies or
null) and prints one line per disagreement: a status the operation does not document, a body its
schema refuses, or a request body the server took (2xx) that the description says it refuses.
Exits 1 when anything disagrees."""
import json
import sys

import jsonschema
import yaml

spec = yaml.safe_load(open(sys.argv[1] if len(sys.argv) > 1 else "schemas/openapi.yaml"))


def valid(schema, value):
    # `#/components/...` references resolve against a root that carries the components.
    root = {"allOf": [schema], "components": spec.get("components", {})}
    errors = sorted(jsonschema.Draft202012Validator(root).iter_errors(value), key=str)
    return [f"{'/'.join(map(str, e.absolute_path)) or 'body'}: {e.message}" for e in errors[:3]]


problems = []
for answer in json.load(sys.stdin):
    name = f"{answer['method'].upper()} {answer['path']} {answer['status']}"
    operation = spec["paths"].get(answer["path"], {}).get(answer["method"])
    if operation is None:
        problems.append(f"{name}: no such operation")
        continue
    response = operation.get("responses", {}).get(str(answer["status"]))
    if response is None:
        problems.append(f"{name}: status not documented ({', '.join(sorted(operation.get('responses', {})))})")
        continue
    schema = response.get("content", {}).get("application/json", {}).get("schema")
    if schema is not None and answer.get("response") is not None:
        problems += [f"{name}: answer: {p}" for p in valid(schema, answer["response"])]
    request = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
    if request is not None and answer.get("request") is not None and 200 <= answer["status"] < 300:
        problems += [f"{name}: taken, though the description refuses it: {p}" for p in valid(request, answer["request"])]
for problem in problems:
    print(problem)
sys.exit(1 if problems else 0)
