#!/usr/bin/env python3
"""PoP's demo data in a running Muster (`make run`): the decks from deploy/pop, an organiser account,
a month of 500 installs studying both decks (some linked across two devices of one person, some
offline for days and sending it all at once, a few hostile), and 200 newsletter signups (some
duplicated, some with names a spreadsheet would run). Prints the organiser's login and page.
Deterministic (seeded); running it again adds nothing new: the same ids are the same changes."""
import json, os, random, subprocess, sys, urllib.error, urllib.request, uuid
from datetime import datetime, timedelta, timezone

M = os.environ.get("MUSTER", ".build/debug/muster")
URL = os.environ.get("MUSTER_URL", "http://127.0.0.1:8080")
ORG, PASSWORD = "pop-sd", "Civics2026"
rng = random.Random(2026)
NS = uuid.UUID("5d1b0e38-6a57-4c1e-9f0e-2f4f3c3a2b10")

def uid(*parts): return str(uuid.uuid5(NS, "/".join(map(str, parts))))
def ts(t): return t.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

def call(method, path, body=None, key=None, token=None):
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    req = urllib.request.Request(URL + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if key: req.add_header("X-API-Key", key)
    if token: req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=60) as r: return r.status, r.read()
    except urllib.error.HTTPError as e: return e.code, e.read()

def muster(*args, stdin=None):
    return subprocess.run([M, *args], input=stdin, capture_output=True, text=True, check=False)

print("== PoP: organisation, organiser, app key")
muster("people", "create-org", "--slug", ORG, "--app", "pop", "--name", "People Over Party")
muster("people", "add", "--org", ORG, "--role", "organiser", "--email", "organiser@pop.demo", "--first-name", "Olive",
       "--last-name", "Organiser", stdin=PASSWORD + "\n")
issued = muster("keys", "issue", "--app", "pop", "--scopes", "read:civics,write:civics,export:newsletter", "--label", "PoP demo")
key = issued.stdout.strip()
if not key.startswith("pop_"):
    sys.exit(f"could not issue a PoP key: {issued.stderr.strip()}")

decks = {}
for name in ("us-civics", "sd-civics"):
    with open(f"deploy/pop/decks/{name}.json") as f: decks[name] = [q["id"] for q in json.load(f)["questions"]]
# Some questions are hard: few learners mark them known.
difficulty = {(d, q): rng.random() ** 2 for d, qs in decks.items() for q in qs}

now = datetime.now(timezone.utc)
people = []  # (email, token) of learners who link two devices
print("== 500 installs studying for a month (40 learners on two devices each, 60 offline for days)")
applied = refused = 0
for n in range(500):
    install = uid("install", n)
    skew = timedelta(minutes=rng.choice([0, 0, 0, 7, -3, 180]))  # some device clocks are off
    counts, known = {}, {}
    days = sorted(rng.sample(range(1, 29), rng.randint(1, 14)))
    offline = n % 9 == 0
    pending = []
    for day in days:
        when = now - timedelta(days=day, hours=rng.randint(0, 10))
        for _ in range(rng.randint(5, 25)):
            deck = rng.choice(["us-civics", "us-civics", "sd-civics"])
            q = rng.choice(decks[deck])
            counts[(deck, q)] = counts.get((deck, q), 0) + 1
            knows = rng.random() > difficulty[(deck, q)]
            known[(deck, q)] = knows
            when += timedelta(seconds=rng.randint(20, 90))
            pending.append({"mutationId": uid("m", n, deck, q, counts[(deck, q)]), "card": {"deck": deck, "questionId": q,
                            "timesViewed": counts[(deck, q)], "lastViewed": ts(when + skew), "isMarkedKnown": knows, "changedAt": ts(when + skew)}})
        if n % 4 == 0:
            pending.append({"mutationId": uid("b", n, day), "bookmark": {"bookmarkId": uid("bm", n, day), "documentId": "constitution",
                            "sectionId": f"article-{rng.randint(1, 7)}", "createdAt": ts(when + skew)}})
        if not offline:  # an online device syncs the day's changes (sent now: the server has only one clock)
            pending, batch = [], pending
            for i in range(0, len(batch), 500):
                status, body = call("POST", f"/api/pop/installs/{install}/changes", {"org": ORG, "sentAt": ts(now + skew), "changes": batch[i:i + 500]}, key=key)
                results = json.loads(body).get("results", []) if status == 200 else []
                applied += sum(r["status"] == "applied" for r in results); refused += sum(r["status"] == "refused" for r in results)
    for i in range(0, len(pending), 500):  # offline for days: everything at once
        status, body = call("POST", f"/api/pop/installs/{install}/changes", {"org": ORG, "sentAt": ts(now + skew), "changes": pending[i:i + 500]}, key=key)
        results = json.loads(body).get("results", []) if status == 200 else []
        applied += sum(r["status"] == "applied" for r in results); refused += sum(r["status"] == "refused" for r in results)
    if n < 80 and n % 2 == 0:  # learner n/2 links installs n and n+1
        email = f"learner{n // 2}@pop.demo"
        call("POST", "/auth/register", {"org_slug": ORG, "first_name": "Learner", "last_name": str(n // 2), "email": email, "password": PASSWORD})
        status, body = call("POST", "/auth/login", {"org_slug": ORG, "email": email, "password": PASSWORD})
        token = json.loads(body)["token"] if status == 200 else None
        people.append((email, token))
    if n < 80 and token:
        call("POST", f"/api/pop/installs/{install}/link", key=key, token=token)

print("== hostile installs: unknown decks and questions, dates from the future and the far past, broken JSON, a huge batch")
hostile = uid("install", "hostile")
bad = [{"mutationId": uid("h", 1), "card": {"deck": "atlantis", "questionId": 1, "timesViewed": 1, "isMarkedKnown": True, "changedAt": ts(now)}},
       {"mutationId": uid("h", 2), "card": {"deck": "us-civics", "questionId": 999, "timesViewed": 1, "isMarkedKnown": True, "changedAt": ts(now)}},
       {"mutationId": uid("h", 3), "card": {"deck": "us-civics", "questionId": 1, "timesViewed": 1, "isMarkedKnown": True, "changedAt": "2999-01-01T00:00:00Z"}},
       {"mutationId": uid("h", 4), "card": {"deck": "us-civics", "questionId": 1, "timesViewed": -5, "isMarkedKnown": True, "changedAt": ts(now)}},
       {"mutationId": "not-a-uuid", "card": {"deck": "us-civics", "questionId": 1, "timesViewed": 1, "isMarkedKnown": True, "changedAt": ts(now)}}]
status, body = call("POST", f"/api/pop/installs/{hostile}/changes", {"org": ORG, "sentAt": ts(now), "changes": bad}, key=key)
print(f"   mixed bad batch: {status}, every change refused with its reason: {all(r['status'] == 'refused' for r in json.loads(body)['results'])}")
broken = call("POST", f"/api/pop/installs/{hostile}/changes", b'{"sentAt": [', key=key)[0]
huge = call("POST", f"/api/pop/installs/{hostile}/changes", {"sentAt": ts(now), "changes": bad * 101}, key=key)[0]
print(f"   broken JSON: {broken}, 505 changes in one batch: {huge}")
print(f"   {applied} changes applied, {refused} refused")

print("== 200 newsletter signups (20 duplicates, some names a spreadsheet would run)")
tricky = ["=HYPERLINK(\"http://evil.example\",\"click\")", "+1 605 555 0100", "-Dash Leading", "@mention", "Quote \"Q\", Comma"]
outcomes = {}
for n in range(200):
    first = rng.choice(["Alex", "Sam", "Jordan", "Taylor", "Morgan", "Casey", "Riley", "Avery", "Quinn", "Jamie"])
    name = tricky[(n // 40) % len(tricky)] if n % 40 == 0 else f"{first} {rng.choice(['Black Elk', 'Hansen', 'Olson', 'Two Bulls', 'Larson', 'Schmidt'])}"
    email = f"reader{n if n % 10 else n - 1}@example.com" if n % 10 == 0 and n else f"reader{n}@example.com"
    if n % 10 == 0 and n: email = email.upper()  # a duplicate as another phone typed it
    status, body = call("POST", "/api/pop/newsletter/signups", {"id": uid("signup", n), "name": name, "email": email,
                                                                  "signupDate": ts(now - timedelta(days=rng.randint(0, 28)))}, key=key)
    outcome = json.loads(body).get("status", status) if status in (200, 201) else status
    outcomes[outcome] = outcomes.get(outcome, 0) + 1
print("   " + ", ".join(f"{v} {k}" for k, v in sorted(outcomes.items(), key=str)))

print(f"""
  PoP demo: the organisers' page (sign in as organiser@pop.demo, password {PASSWORD}, organisation {ORG})
    {URL}/pop/civics
  The same figures as JSON (key {key}):
    curl -H 'X-API-Key: {key}' '{URL}/api/pop/civics/hardest?deck=us-civics&minDevices=5'
  Newsletter export (RFC 4180, formulas neutralised):
    curl -H 'X-API-Key: {key}' '{URL}/api/pop/newsletter.csv?org={ORG}'
  Two installs of one person: push from each, then pull the merged state
    curl -X POST -H 'X-API-Key: {key}' -H 'Content-Type: application/json' {URL}/api/pop/installs/{uid('install', 0)}/changes -d '{{"sentAt": "{ts(now)}", "changes": [...]}}'
    curl -H 'X-API-Key: {key}' {URL}/api/pop/installs/{uid('install', 1)}/progress
""")
