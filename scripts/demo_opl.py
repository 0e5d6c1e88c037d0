#!/usr/bin/env python3
"""Publishes a realistic Online Picket Line data set into a running Muster (`make run` first),
through the same HTTP routes the apps and moderators use:

  * 36 labor actions around Rapid City SD, Minneapolis MN and Seattle WA, submitted with an OPL
    key (POST /api/mobile/submit-strike, each with an Idempotency-Key, so running this twice adds
    nothing), approved by a moderator key with blocklist entries and picket sites;
  * a few GPS snapshots, two approved;
  * three submissions left in the queue for the moderation page: a likely duplicate, one with a
    social-network "website", one with an unknown location.

Prints the keys and the commands that show the result. Standard library only.
"""
import json
import os
import random
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request

URL = os.environ.get("MUSTER_URL", "http://127.0.0.1:8080")
MUSTER = os.environ.get("MUSTER", ".build/debug/muster")
rng = random.Random(7)

CITIES = {
    "Rapid City, SD": (44.0805, -103.2310),
    "Minneapolis, MN": (44.9778, -93.2650),
    "Seattle, WA": (47.6062, -122.3321),
}
# Fictional employers; their domains are the blocklist entries.
EMPLOYERS = [
    ("Black Hills Freight", "Logistics", ["blackhillsfreight.com", "track.blackhillsfreight.com"]),
    ("Prairie Fresh Markets", "Grocery", ["prairiefresh.com", "facebook.com/prairiefreshmarkets"]),
    ("Rushmore Health Partners", "Healthcare", ["rushmorehealth.org"]),
    ("Northstar Hotels", "Hospitality", ["northstarhotels.com", "book.northstarhotels.com"]),
    ("Mill City Transit Services", "Transit", ["millcitytransit.com"]),
    ("Lakeside Packaging Co.", "Manufacturing", ["lakesidepackaging.com"]),
    ("Cascade Coffee Roasters", "Food service", ["cascadecoffee.com", "shop.cascadecoffee.com", "instagram.com/cascadecoffee"]),
    ("Puget Sound Parcel", "Logistics", ["pugetparcel.com"]),
    ("Emerald Warehouse Group", "Warehousing", ["emeraldwarehouse.com"]),
    ("Twin Rivers Nursing", "Healthcare", ["twinriversnursing.org"]),
    ("Badlands Energy Services", "Energy", ["badlandsenergy.com"]),
    ("Summit Outdoor Retail", "Retail", ["summitoutdoor.com", "summitoutdoor.ca"]),
]
UNIONS = ["Teamsters Local 120", "UFCW Local 663", "SEIU Healthcare MN & IA", "UNITE HERE Local 17", "ATU Local 1005",
          "IAM District 751", "Workers United", "AFSCME Council 5", "USW Local 11-418", "UFCW 3000"]
TYPES = ["strike", "picket", "walkout", "boycott", "lockout", "work_stoppage", "slowdown"]
DEMANDS = ["Fair scheduling and an end to forced overtime", "Safe staffing ratios", "A first contract",
           "Living wages indexed to inflation", "Reinstate fired organizers", "Heat safety protections"]


def call(method, path, key, body=None, idempotency=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(URL + path, data=data, method=method)
    request.add_header("X-API-Key", key)
    request.add_header("Accept", "application/json")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if idempotency:
        request.add_header("Idempotency-Key", idempotency)
    for _ in range(10):
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            if error.code == 429 or (error.code == 503 and error.headers.get("Retry-After")):  # as the apps do: wait as long as Retry-After says
                time.sleep(int(error.headers.get("Retry-After", "1")))
                continue
            return error.code, json.loads(error.read() or b"{}")
    sys.exit("still rate limited after 10 tries")


def wait_for(path, key, what):
    for _ in range(100):
        status, body = call("GET", path, key)
        if status == 200:
            return body
        time.sleep(0.1)
    sys.exit("timed out waiting for %s" % what)


def issue(app, scopes, label):
    out = subprocess.run([MUSTER, "keys", "issue", "--app", app, "--scopes", scopes, "--label", label],
                         check=True, capture_output=True, text=True)
    return out.stdout.strip()


KEYS_FILE = os.environ.get("MUSTER_DEMO_KEYS", os.path.join(os.environ.get("MUSTER_DEMO_STATE", ".data"), "demo_opl_keys.json"))


def demo_keys():
    """The demo's keys, kept in .data so a second run reuses them (and its Idempotency-Keys then
    name the same actions: nothing new is appended)."""
    try:
        with open(KEYS_FILE) as f:
            keys = json.load(f)
        if all(call("GET", "/api/platform/whoami", k)[0] == 200 for k in keys["apps"] + [keys["moderator"]]):
            return keys["apps"], keys["moderator"]
    except (OSError, ValueError, KeyError):
        pass
    # One app key per city: people in three places use their own phones.
    apps = [issue("opl", "read:mobile,write:submit-strike,write:gps-snapshot", "OPL demo app, %s" % city) for city in CITIES]
    moderator = issue("opl", "moderate:opl,read:mobile", "OPL demo moderator")
    os.makedirs(os.path.dirname(KEYS_FILE), exist_ok=True)
    with open(KEYS_FILE, "w") as f:
        json.dump({"apps": apps, "moderator": moderator}, f)
    return apps, moderator


def check_blocklists(key):
    """What the clients get: hosts only under the employers' own domains, in every feed; each
    employer page on a platform in the extension's feed alone, matched by its regex and its rule.
    Asked again for a few seconds while the query side folds the last approvals."""
    own = {d for _, _, domains in EMPLOYERS for d in domains if "/" not in d and d.count(".") == 1}
    pages = [d for _, _, domains in EMPLOYERS for d in domains if "/" in d]
    for attempt in range(50):
        _, data = call("GET", "/api/mobile/data?lat=44.0805&lng=-103.2310", key)
        _, dns = call("GET", "/api/blocklist.json", key)
        _, extension = call("GET", "/api/blocklist.json?format=extension", key)
        hosts = [u["url"] for u in data["blocklist"]["urls"]] + [e for entry in dns.values() for e in entry["matchingUrlRegexes"]]
        strays = [h for h in hosts if not any(h == d or h.endswith("." + d) for d in own)]
        if strays:
            sys.exit("blocklists: host feeds hold entries outside the employers' own domains: %s" % strays)
        entries = [e for entry in extension.values() for e in entry["matchingUrlRegexes"]]
        rules = ["||" + e.replace("\\.", ".") + "^" for e in entries]
        missing = [p for p in pages if not any(re.search(e, "https://www." + p, re.IGNORECASE) for e in entries) or "||%s^" % p not in rules]
        if not missing:
            print("blocklists: %d host entries, all under the employers' own domains; %d employer pages, for the extension only"
                  % (len(set(hosts)), len(pages)))
            return
        time.sleep(0.2)
    sys.exit("blocklists: the extension's feed does not block %s" % missing)


def main():
    try:
        urllib.request.urlopen(URL + "/health", timeout=3)
    except OSError:
        sys.exit("no Muster at %s: start it with `make run`" % URL)
    apps, moderator = demo_keys()
    app = apps[0]
    wait_for("/api/mobile/active-strikes", app, "the demo keys")
    print("submitting and approving 36 actions around %s" % ", ".join(CITIES))
    approved = []
    today = time.time()
    for index in range(36):
        city = list(CITIES)[index % 3]
        lat, lng = CITIES[city]
        name, industry, domains = EMPLOYERS[index % len(EMPLOYERS)]
        began = rng.randint(0, 20)
        start = time.strftime("%Y-%m-%d", time.gmtime(today - began * 86400))
        action = {
            "organization": UNIONS[index % len(UNIONS)], "actionType": TYPES[index % len(TYPES)],
            "location": "%s site %d, %s" % (name.split()[0], index // 3 + 1, city), "startDate": start,
            # Still on for a week at least: an action over on arrival is ended by the expiry sweeper
            # (within seconds, or between two runs of the demo) and leaves the blocklists.
            "durationDays": max(rng.choice([14, 30, 45, 60]), began + 7),
            "description": "Workers at %s's %s location walked off over %s." % (name, city.split(",")[0], rng.choice(DEMANDS).lower()),
            "demands": rng.choice(DEMANDS), "contactInfo": "picket-captain@%s" % UNIONS[index % len(UNIONS)].split()[0].lower() + ".example.org",
            "learnMoreUrl": "https://unions.example.org/actions/%d" % (index + 1),
            "coordinates": {"latitude": round(lat + rng.uniform(-0.08, 0.08), 5), "longitude": round(lng + rng.uniform(-0.1, 0.1), 5)},
        }
        status, body = call("POST", "/api/mobile/submit-strike", apps[index % 3],
                            {"employer": {"name": name, "industry": industry, "website": "https://www." + domains[0]}, "action": action},
                            idempotency="demo-action-%d" % index)
        if status != 201:
            sys.exit("submit-strike answered %d: %s" % (status, body))
        action_id = body["id"]
        current = wait_for("/api/moderation/actions/" + action_id, moderator, action_id)
        if current["status"] in ("approved", "ended", "rejected"):
            # An earlier run decided it: approved, or approved and since ended (a 14-day action that
            # began 14 days ago runs out between two runs of the demo).
            if current["status"] == "approved":
                approved.append(action_id)
            continue
        c = action["coordinates"]
        sites = [{"type": "picket-site", "name": "Main gate", "latitude": round(c["latitude"] + 0.002, 5),
                  "longitude": round(c["longitude"] + 0.002, 5), "notificationRadius": 200},
                 {"type": "employer-location", "name": "%s %s" % (name, city.split(",")[0]), "latitude": c["latitude"],
                  "longitude": c["longitude"], "notificationRadius": 400}]
        # The moderator marks the employer's own domains (the demo's are all registered names like
        # summitoutdoor.ca): their hosts are blocked everywhere; facebook.com/… stays one page.
        own = [d for d in domains if "/" not in d and d.count(".") == 1]
        status, body = call("POST", "/api/moderation/actions/%s/approve" % action_id, moderator,
                            {"reason": "confirmed with %s" % action["organization"], "urls": domains, "ownDomains": own, "locations": sites})
        if status != 200:
            sys.exit("approve answered %d: %s" % (status, body))
        approved.append(action_id)
    print("snapshots")
    for index, action_id in enumerate(approved[:4]):
        detail = wait_for("/api/moderation/actions/" + action_id, moderator, action_id)
        c = detail["details"]["coordinates"]
        status, body = call("POST", "/api/mobile/gps-snapshot", app,
                            {"actionId": action_id, "latitude": c["latitude"] + 0.003, "longitude": c["longitude"] - 0.002,
                             "notes": "about %d people on the line" % rng.randint(10, 80)}, idempotency="demo-snapshot-%d" % index)
        if status != 201:
            sys.exit("gps-snapshot answered %d: %s" % (status, body))
        if index < 2:
            wait_for("/api/moderation/snapshots/" + body["id"], moderator, body["id"])
            call("POST", "/api/moderation/snapshots/%s/approve" % body["id"], moderator, {"reason": "matches the union's report"})
    check_blocklists(app)
    print("three submissions left for the moderation page")
    pending = [
        ({"name": "Black Hills Freight", "website": "blackhillsfreight.com"},
         {"organization": "Teamsters Local 120", "actionType": "strike", "location": "Rapid City, SD", "startDate": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
          "durationDays": 7, "description": "Drivers out at the north yard (probably the same strike as the approved one).",
          "coordinates": {"latitude": 44.09, "longitude": -103.22}}),
        ({"name": "Sioux Falls Meatpacking", "website": "https://facebook.com/sfmeatpacking"},
         {"organization": "UFCW Local 304A", "actionType": "walkout", "location": "Sioux Falls, SD", "startDate": time.strftime("%Y-%m-%d", time.gmtime()),
          "durationDays": 30, "description": "Line workers walked out after a chemical leak."}),
        ({"name": "Unnamed contractor"},
         {"organization": "Laborers Local 563", "actionType": "other", "location": "Unknown", "startDate": time.strftime("%Y-%m-%d", time.gmtime()),
          "description": "Heard there is a picket somewhere downtown."}),
    ]
    for index, (employer, action) in enumerate(pending):
        call("POST", "/api/mobile/submit-strike", app, {"employer": employer, "action": action}, idempotency="demo-pending-%d" % index)
    print()
    print("OPL app key:        %s" % app)
    print("moderator key:      %s" % moderator)
    print()
    print("Try:")
    print("  curl -si -H 'X-API-Key: %s' '%s/api/mobile/data?lat=44.0805&lng=-103.2310' | head -20" % (app, URL))
    print("  curl -s -o /dev/null -w '%%{http_code}\\n' -H 'X-API-Key: %s' '%s/api/mobile/data?lat=44.0805&lng=-103.2310&hash=<X-Content-Hash>'" % (app, URL))
    print("  curl -s -H 'X-API-Key: %s' '%s/api/blocklist.json' | python3 -m json.tool | head -40" % (app, URL))
    print("  open %s/moderation and sign in with the moderator key" % URL)


if __name__ == "__main__":
    main()
