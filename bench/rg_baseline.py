#!/usr/bin/env python3
"""Baseline for reverse geocoding: Python's reverse_geocoder (a scipy k-d tree over the same
GeoNames cities1000 data Muster's gazetteer is built from), answering single queries one at a
time, as a service would. Usage: rg_baseline.py POINTS_FILE QUERIES  (lines of "lat,lng")."""
import json
import sys
import time

import reverse_geocoder as rg

points = [tuple(map(float, line.split(","))) for line in open(sys.argv[1]) if line.strip()]
queries = int(sys.argv[2])
geocoder = rg.RGeocoder(mode=1, verbose=False)  # single process: mode 2 forks per call
geocoder.query([points[0]])  # load and warm up
start = time.perf_counter()
for i in range(queries):
    geocoder.query([points[i % len(points)]])
elapsed = time.perf_counter() - start
search_start = time.perf_counter()
for i in range(min(queries, 2000)):
    rg.search(points[i % len(points)], mode=1, verbose=False)
search_elapsed = time.perf_counter() - search_start
print(json.dumps({"queries": queries, "reverse_per_sec": int(queries / elapsed),
                  "search_api_per_sec": int(min(queries, 2000) / search_elapsed)}))
