#!/usr/bin/env python3
"""Baseline for reverse geocoding: Python's reverse_geocoder (a scipy k-d tree over the same
GeoNames cities1000 data Muster's gazetteer is built from), answering single queries one at a
time, as a service would. Usage: rg_baseline.py POINTS_FILE QUERIES  (lines of "lat,lng").

Why runs once differed by 4x (19k against 82k q/s): numpy's BLAS and OpenMP start a thread per
core for each call, which on a small machine fight each other and whatever else runs; and the
first thousands of queries still fault in the tree's pages. So: one thread each (set before
numpy loads), a warm-up of 5,000 queries, and the median of three timed rounds."""
import os

for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ.setdefault(variable, "1")

import json  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import reverse_geocoder as rg  # noqa: E402

points = [tuple(map(float, line.split(","))) for line in open(sys.argv[1]) if line.strip()]
queries = int(sys.argv[2])
geocoder = rg.RGeocoder(mode=1, verbose=False)  # single process: mode 2 forks per call
for i in range(5000):  # load and warm up
    geocoder.query([points[i % len(points)]])
rounds = []
for _ in range(3):
    start = time.perf_counter()
    for i in range(queries):
        geocoder.query([points[i % len(points)]])
    rounds.append(time.perf_counter() - start)
elapsed = statistics.median(rounds)
search_start = time.perf_counter()
for i in range(min(queries, 2000)):
    rg.search(points[i % len(points)], mode=1, verbose=False)
search_elapsed = time.perf_counter() - search_start
print(json.dumps({"queries": queries, "reverse_per_sec": int(queries / elapsed),
                  "rounds_per_sec": [int(queries / r) for r in rounds],
                  "search_api_per_sec": int(min(queries, 2000) / search_elapsed)}))
