#!/usr/bin/env python3
"""Reference validation of every schema example with Python's jsonschema (Draft 2020-12).

Prints one JSON object: {"<schema path>": {"valid": [bool, ...], "invalid": [bool, ...]}} where each
bool says whether jsonschema accepted that example. The Swift test compares these verdicts with
what the Swift event types say about the same examples.
"""
import json
import pathlib
import sys

from jsonschema import Draft202012Validator

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "schemas/events")
verdicts = {}
for path in sorted(root.rglob("*.json")):
    schema = json.loads(path.read_text())
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    verdicts[str(path.relative_to(root.parent.parent))] = {
        "valid": [validator.is_valid(example) for example in schema.get("examples", [])],
        "invalid": [validator.is_valid(example) for example in schema.get("x-invalid-examples", [])],
    }
json.dump(verdicts, sys.stdout, indent=1, sort_keys=True)
