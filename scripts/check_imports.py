#!/usr/bin/env python3
"""Every module a target's files import is one its Package.swift entry declares.

MemberImportVisibility makes each file import what it uses; this makes each target declare what
its files import, so nothing compiles only because another target happened to build a module.
Usage: scripts/check_imports.py [PACKAGE_DIR]   (exit 1 and a list when something is undeclared)
"""
import json, os, re, subprocess, sys, tempfile

root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SYSTEM = {"Foundation", "FoundationNetworking", "FoundationEssentials", "Glibc", "Musl", "Darwin", "Synchronization",
          "Testing", "XCTest", "Dispatch", "_Concurrency", "RegexBuilder"}
# Modules a product brings besides its own name.
PRODUCT_MODULES = {"Histogram": {"Histogram"}, "Crypto": {"Crypto"}, "ArgumentParser": {"ArgumentParser"}}

# A scratch folder of its own: `swift test` holds the lock on .build while a test runs this.
with tempfile.TemporaryDirectory() as scratch:
    # MUSTER_FUZZ=1 adds the fuzz targets to the manifest, so they are checked too.
    package = json.loads(subprocess.run(["swift", "package", "--scratch-path", scratch, "dump-package"], cwd=root,
                                        env={**os.environ, "MUSTER_FUZZ": "1"}, capture_output=True, text=True, check=True).stdout)
problems = []
for target in package["targets"]:
    if target["type"] == "system":
        continue
    declared = set()
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "product", "target"):
            if kind in dependency:
                declared.add(dependency[kind][0])
    declared |= {m for d in list(declared) for m in PRODUCT_MODULES.get(d, ())}
    path = target.get("path") or os.path.join("Tests" if target["type"] == "test" else "Sources", target["name"])
    for folder, _, files in os.walk(os.path.join(root, path)):
        for name in files:
            if not name.endswith(".swift"):
                continue
            file = os.path.join(folder, name)
            for line in open(file, encoding="utf-8"):
                match = re.match(r"^\s*(?:@testable\s+|@preconcurrency\s+|internal\s+|public\s+|package\s+)*import\s+(?:struct\s+|class\s+|enum\s+|func\s+)?([A-Za-z_][A-Za-z0-9_]*)", line)
                if match and match.group(1) not in SYSTEM and match.group(1) not in declared and match.group(1) != target["name"]:
                    problems.append(f"{os.path.relpath(file, root)}: imports {match.group(1)}, which target {target['name']} does not declare")
for problem in sorted(set(problems)):
    print(problem)
sys.exit(1 if problems else 0)
