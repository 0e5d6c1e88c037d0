#!/usr/bin/env python3
"""The field app's demo data in a running Muster (`make run`): a company near Rapid City with two
managers and eight workers, three projects, a week of time entries synced after a day offline (some
started or ended outside the site's geofence), expenses with receipt images and progress photos
(small generated JPEGs, uploaded resumably), and two expense amounts edited on two devices into
conflicts. Prints a worker's and a manager's login and a curl session. Each device keeps its state
in .data/field-demo/; running the demo again changes nothing already there."""
import base64, json, os, random, subprocess, sys
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

sys.path.insert(0, os.path.dirname(__file__))
from field_device import Device, URL  # noqa: E402

M = os.environ.get("MUSTER", ".build/debug/muster")
ORG, PASSWORD = "acme-build", "Hardhat2026"
STATE = os.path.join(os.environ.get("MUSTER_DEMO_STATE", ".data"), "field-demo")
rng = random.Random(16)
# A 1x1 baseline JPEG; each generated image gets its own comment segment, so each has its own digest.
JPEG = base64.b64decode("/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////"
                        "////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=")


def jpeg(label):
    comment = label.encode()[:200]
    return JPEG[:2] + b"\xff\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment + JPEG[2:]


def muster(*args, stdin=None):
    return subprocess.run([M, *args], input=stdin, capture_output=True, text=True, check=False)


def ts(t):
    return t.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def device(name):
    os.makedirs(STATE, exist_ok=True)
    d = Device(f"{STATE}/{name}.json")
    d.login(ORG, name.split("-")[0] + "@acme.demo", PASSWORD)  # tokens expire: a device signs in each run
    return d


print("== Field: company, managers, workers")
muster("people", "create-org", "--slug", ORG, "--app", "field", "--name", "Acme Build, Rapid City")
managers = [("mia", "Mia", "Manager"), ("max", "Max", "Foreman")]
workers = [(n, n.capitalize(), "Field") for n in ("ana", "ben", "cal", "dee", "eli", "fay", "gus", "hal")]
for role, people in (("manager", managers), ("worker", workers)):
    for login, first, last in people:
        added = muster("people", "add", "--org", ORG, "--role", role, "--email", f"{login}@acme.demo", "--first-name", first, "--last-name", last,
                       stdin=PASSWORD + "\n")
        if added.returncode != 0 and "already exists" not in added.stderr + added.stdout:  # a second run finds them
            sys.exit(f"demo_field: adding {login}: {added.stderr.strip()}")

def need(what, answer, *ok):
    """An answer the demo relies on: any other status stops it."""
    status, _, body = answer
    if status not in (ok or (200,)): sys.exit(f"demo_field: {what} answered {status}: {body[:300].decode(errors='replace')}")
    return body

office = device("mia-office")
need("the company's settings", office.call("PUT", "/api/field/settings", {"importantFields": ["expense.amount"], "importantOnceApproved": ["timeEntry.endTime", "timeEntry.startTime"],
                                          "tombstoneDays": 30, "timeZone": "America/Denver"}))  # Rapid City's weeks, for the timesheets
sites = [("Main St. bridge deck", "100 Main St, Rapid City, SD", 44.0805, -103.2310),
         ("Canyon Lake school addition", "1500 Evergreen Dr, Rapid City, SD", 44.0560, -103.2950),
         ("Ellsworth hangar 4", "Ellsworth AFB, SD", 44.1450, -103.1030)]
projects = []
for i, (name, address, lat, lon) in enumerate(sites):
    existing = [r for r in office.state["records"].values() if r["entity"] == "project" and r["fields"].get("name") == name]
    projects.append(existing[0]["id"] if existing else office.edit("project", "new", {"name": name, "address": address, "latitude": lat,
                                                                                   "longitude": lon, "radiusMeters": 100, "startDate": "2026-10-01"}))
office.sync(quiet=True)
ids = {}
for login, _, _ in workers:
    d = device(f"{login}-phone")
    ids[login] = d.state["person"]["id"]
for n, (login, _, _) in enumerate(workers):
    need(f"assigning {login}", office.call("PUT", f"/api/field/projects/{projects[n % 3]}/members/{ids[login]}"), 204)
print(f"   3 projects; 8 workers on them; managers mia@acme.demo and max@acme.demo")

print("== a week of time, expenses with receipts, progress photos (each worker's phone offline, then one sync)")
local = datetime.now(ZoneInfo("America/Denver"))  # the crews' clocks: shifts start around 07:00 there
monday = (local - timedelta(days=local.weekday() + 7)).replace(hour=0, minute=0, second=0, microsecond=0)
outside = 0
for n, (login, _, _) in enumerate(workers):
    d = device(f"{login}-phone")
    if any(r["entity"] == "timeEntry" for r in d.state["records"].values()):
        continue  # already there from an earlier run
    project, (_, _, lat, lon) = projects[n % 3], sites[n % 3]
    for day in range(5):
        start = monday + timedelta(days=day, hours=7, minutes=rng.randint(-15, 20))
        end = start + timedelta(hours=8, minutes=rng.randint(0, 60))
        off = 0.0028 if rng.random() < 0.12 else rng.uniform(-0.0004, 0.0004)  # ~300 m away now and then
        outside += off == 0.0028
        d.edit("timeEntry", "new", {"projectId": project, "startTime": ts(start), "endTime": ts(end), "startSource": "geofence", "endSource": "geofence",
                                    "startLatitude": lat + off, "startLongitude": lon, "startAccuracy": rng.randint(5, 25),
                                    "endLatitude": lat + rng.uniform(-0.0004, 0.0004), "endLongitude": lon, "endAccuracy": rng.randint(5, 25)})
    receipt = d.upload(jpeg(f"receipt {login}"), "image/jpeg")["digest"]
    d.edit("expense", "new", {"projectId": project, "amount": f"{rng.randint(8, 180)}.{rng.randint(0, 99):02d}", "currency": "USD",
                              "category": rng.choice(["fuel", "materials", "tools", "meals"]), "date": ts(monday + timedelta(days=2))[:10],
                              "latitude": lat, "longitude": lon, "receipt": receipt})
    photo = d.upload(jpeg(f"progress {login}"), "image/jpeg")["digest"]
    d.edit("photo", "new", {"projectId": project, "takenAt": ts(monday + timedelta(days=3, hours=11)), "latitude": lat, "longitude": lon,
                            "caption": f"Progress, day 4 ({login})", "digest": photo})
    d.sync(quiet=True)
print(f"   40 time entries ({outside} started outside a site: marked for review), 8 expenses with receipts, 8 photos")

print("== two expense amounts edited on two devices into conflicts")
office.sync(quiet=True)
conflicts = 0
for login in ("ana", "ben"):
    phone = device(f"{login}-phone")
    expense = next((r for r in phone.state["records"].values() if r["entity"] == "expense"), None)
    if not expense: continue
    body = need("the conflicts", office.call("GET", "/api/field/conflicts?status=all"))
    if any(c["recordId"] == expense["id"] for c in json.loads(body).get("conflicts", [])): continue
    office.sync(quiet=True)
    office.edit("expense", expense["id"], {"amount": "99.00"})        # the manager corrects it on the office tablet...
    phone.edit("expense", expense["id"], {"amount": "101.50", "notes": "tip included"})  # ...while the worker, offline, does too
    office.sync(quiet=True)
    conflicts += sum(o["status"] == "conflict" for o in phone.sync(quiet=True))
print(f"   {conflicts} new conflicts for the managers")

if not any(r["entity"] == "message" for r in office.state["records"].values()):  # a manager's word to a crew: pushed to the phones not connected
    office.edit("message", "new", {"projectId": projects[0], "body": "Concrete pour moved to 7:00 tomorrow. Park on 4th St."})
    office.sync(quiet=True)
    print("== a message to the crew of the first project (its workers without a live socket get it as a push)")

for r in office.state["records"].values():  # approve Monday's time
    if r["entity"] == "timeEntry" and r["fields"].get("startTime", "").startswith(ts(monday)[:10]) and not r["approved"]:
        need("approving a time entry", office.call("POST", f"/api/field/time-entries/{r['id']}/approve"), 200, 204)

week = f"{monday.isocalendar()[0]}-W{monday.isocalendar()[1]:02d}"
print(f"""
== Field demo ready ({URL})
   worker:  ana@acme.demo / {PASSWORD}      manager: mia@acme.demo / {PASSWORD}      (company {ORG})

   TOKEN=$(curl -s -X POST {URL}/api/field/auth/login -H 'Content-Type: application/json' \\
       -d '{{"org_slug": "{ORG}", "email": "mia@acme.demo", "password": "{PASSWORD}"}}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
   curl -s -H "Authorization: Bearer $TOKEN" '{URL}/api/field/changes?limit=5'
   curl -s -H "Authorization: Bearer $TOKEN" {URL}/api/field/conflicts
   curl -s -X POST -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d '{{"decision": "takeDevice"}}' \\
       {URL}/api/field/conflicts/CONFLICT_ID/resolve
   curl -s -H "Authorization: Bearer $TOKEN" '{URL}/api/field/timesheet.csv?week={week}'

   Two devices, offline edits, a conflict, a broken upload, a live change:
   D=scripts/field_device.py
   $D --state /tmp/ana.json login --org {ORG} --email ana@acme.demo --password {PASSWORD}
   $D --state /tmp/mia.json login --org {ORG} --email mia@acme.demo --password {PASSWORD}
   $D --state /tmp/ana.json sync; $D --state /tmp/mia.json sync; $D --state /tmp/ana.json show
   $D --state /tmp/mia.json edit expense EXPENSE_ID amount='"20.00"'; $D --state /tmp/ana.json edit expense EXPENSE_ID amount='"25.00"'
   $D --state /tmp/mia.json sync; $D --state /tmp/ana.json sync        # the second sync answers: conflict
   $D --state /tmp/ana.json upload some.jpg --break-at 65536         # resumes from the offset the server holds
   $D --state /tmp/ana.json watch &  $D --state /tmp/mia.json edit project PROJECT_ID name='"Renamed"'; $D --state /tmp/mia.json sync
   $D --state /tmp/mia.json edit message new projectId='"PROJECT_ID"' body='"Hard hats on the deck"'; $D --state /tmp/mia.json sync
""")
