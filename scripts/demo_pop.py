#!/usr/bin/env python3
"""PoP's demo data in a running Muster (`make run`): the decks from deploy/pop, an organiser account,
a month of 500 installs studying both decks (some linked across two devices of one person, some
offline for days and sending it all at once, a few hostile), and 200 newsletter signups (some
duplicated, some with names a spreadsheet would run). Prints the organiser's login and page.
Deterministic (seeded); running it again adds nothing new: the same ids are the same changes."""
import json, os, random, subprocess, sys, time, urllib.error, urllib.request, uuid
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

def need(what, answer, *ok):
    """The answer of a call the demo relies on: anything but the expected status stops the demo."""
    status, body = answer
    if status not in (ok or (200,)):
        sys.exit(f"demo_pop: {what} answered {status}: {body[:300].decode(errors='replace')}")
    return json.loads(body) if body else {}

SMS = os.environ.get("SMS_PORT", "2200")  # make run SIGNIN=standin: the mail stand-in keeps what it was sent

def mailed_code(email):
    """The newest six-digit code mailed to `email`, from the mail stand-in; None without one."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{SMS}/standin/messages", timeout=10) as r: messages = json.load(r)
    except (urllib.error.URLError, OSError):
        return None
    codes = [w.rstrip(".;") for m in messages if m.get("to") == email for w in m.get("body", "").split() if len(w.rstrip(".;")) == 6 and w.rstrip(".;").isdigit()]
    return codes[-1] if codes else None

print("== PoP: organisation, organiser, app key")
muster("people", "create-org", "--slug", ORG, "--app", "pop", "--name", "People Over Party")
muster("people", "add", "--org", ORG, "--role", "organiser", "--email", "organiser@pop.demo", "--first-name", "Olive",
       "--last-name", "Organiser", stdin=PASSWORD + "\n")
issued = muster("keys", "issue", "--app", "pop", "--scopes", "read:civics,write:civics,export:newsletter,devices:register", "--label", "PoP demo")
key = issued.stdout.strip()
if not key.startswith("pop_"):
    sys.exit(f"could not issue a PoP key: {issued.stderr.strip()}")

decks = {}
for name in ("us-civics", "sd-civics"):
    with open(f"deploy/pop/decks/{name}.json") as f: decks[name] = [q["id"] for q in json.load(f)["questions"]]
# Some questions are hard: few learners mark them known.
difficulty = {(d, q): rng.random() ** 2 for d, qs in decks.items() for q in qs}

now = datetime.now(timezone.utc)
print("== 500 installs studying for a month (60 offline for days)")
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
                results = need("a day's sync", call("POST", f"/api/pop/installs/{install}/changes", {"org": ORG, "sentAt": ts(now + skew), "changes": batch[i:i + 500]}, key=key))["results"]
                applied += sum(r["status"] == "applied" for r in results); refused += sum(r["status"] == "refused" for r in results)
    for i in range(0, len(pending), 500):  # offline for days: everything at once
        results = need("an offline batch", call("POST", f"/api/pop/installs/{install}/changes", {"org": ORG, "sentAt": ts(now + skew), "changes": pending[i:i + 500]}, key=key))["results"]
        applied += sum(r["status"] == "applied" for r in results); refused += sum(r["status"] == "refused" for r in results)

print("== 40 learners make accounts and carry their progress across two installs each (through /api/pop/auth)")
try:
    urllib.request.urlopen(f"http://127.0.0.1:{SMS}/standin/messages", timeout=5).read()
    by_mail = True
except (urllib.error.URLError, OSError):
    by_mail = False
    print(f"   (no mail stand-in at 127.0.0.1:{SMS}: make run SIGNIN=standin; the learners are added with `muster people add` instead)")
merged_cards = 0
for k in range(40):
    email, first, second = f"learner{k}@pop.demo", uid("install", 2 * k), uid("install", 2 * k + 1)
    device = {"device_name": f"Learner {k}'s phone", "platform": "ios"}
    # Each sign-up or sign-in names its install, with the app's key: the install links there and then.
    status, body = call("POST", "/api/pop/auth/login", {"email": email, "password": PASSWORD, "install_id": first, **device}, key=key)
    if status == 200:
        token = json.loads(body)["token"]  # a second run: the account is there
    elif by_mail:
        need("a sign-up", call("POST", "/api/pop/auth/register", {"first_name": "Learner", "last_name": str(k), "email": email, "password": PASSWORD}), 202)
        code = None
        for _ in range(50):  # the mail leaves after the answer
            code = mailed_code(email)
            if code: break
            time.sleep(0.1)
        if not code: sys.exit(f"demo_pop: no code was mailed to {email}")
        token = need("verifying the email", call("POST", "/api/pop/auth/verify-email", {"email": email, "code": code, "install_id": first, **device},
                                                 key=key))["token"]
    else:
        added = muster("people", "add", "--org", ORG, "--role", "learner", "--email", email, "--first-name", "Learner", "--last-name", str(k), stdin=PASSWORD + "\n")
        if added.returncode != 0 and "already exists" not in added.stderr: sys.exit(f"demo_pop: adding {email}: {added.stderr.strip()}")
        token = need("a learner's sign-in", call("POST", "/api/pop/auth/login", {"email": email, "password": PASSWORD, "install_id": first, **device},
                                                 key=key))["token"]
    # The second install signs in on its own (another session), and links as it does.
    other = need("signing in on the second install", call("POST", "/api/pop/auth/login", {"email": email, "password": PASSWORD, "install_id": second,
                                                                                          "device_name": f"Learner {k}'s tablet", "platform": "ios"},
                                                          key=key))["token"]
    cards = lambda pull: sorted((c["deck"], c["questionId"], c["timesViewed"]) for c in pull["cards"])
    for _ in range(100):  # behind a gateway, a pull may reach a replica whose fold is a moment behind the link
        a = need("pulling the first install", call("GET", f"/api/pop/installs/{first}/progress", key=key))
        b = need("pulling the second install", call("GET", f"/api/pop/installs/{second}/progress", key=key))
        if a["linked"] and b["linked"] and cards(a) == cards(b): break
        time.sleep(0.1)
    else:
        sys.exit(f"demo_pop: {email}'s two installs do not show the same merged progress within 10 s")
    merged_cards += len(a["cards"])
    for _ in range(100):  # the same: the replica answering may not have folded the first install's session yet
        sessions = need("the learner's sessions", call("GET", "/api/pop/auth/sessions", token=other))["sessions"]
        if len(sessions) >= 2: break
        time.sleep(0.1)
    else:
        sys.exit(f"demo_pop: {email} has {len(sessions)} session(s), not one per install")
print(f"   40 learners, each on two linked installs showing the same merged progress: {merged_cards} cards in all")

print("== hostile installs: unknown decks and questions, dates from the future and the far past, broken JSON, a huge batch")
hostile = uid("install", "hostile")
bad = [{"mutationId": uid("h", 1), "card": {"deck": "atlantis", "questionId": 1, "timesViewed": 1, "isMarkedKnown": True, "changedAt": ts(now)}},
       {"mutationId": uid("h", 2), "card": {"deck": "us-civics", "questionId": 999, "timesViewed": 1, "isMarkedKnown": True, "changedAt": ts(now)}},
       {"mutationId": uid("h", 3), "card": {"deck": "us-civics", "questionId": 1, "timesViewed": 1, "isMarkedKnown": True, "changedAt": "2999-01-01T00:00:00Z"}},
       {"mutationId": uid("h", 4), "card": {"deck": "us-civics", "questionId": 1, "timesViewed": -5, "isMarkedKnown": True, "changedAt": ts(now)}},
       {"mutationId": "not-a-uuid", "card": {"deck": "us-civics", "questionId": 1, "timesViewed": 1, "isMarkedKnown": True, "changedAt": ts(now)}}]
results = need("the mixed bad batch", call("POST", f"/api/pop/installs/{hostile}/changes", {"org": ORG, "sentAt": ts(now), "changes": bad}, key=key))["results"]
if not all(r["status"] == "refused" for r in results): sys.exit("demo_pop: a hostile change was not refused")
print("   mixed bad batch: 200, every change refused with its reason")
broken = call("POST", f"/api/pop/installs/{hostile}/changes", b'{"sentAt": [', key=key)[0]
huge = call("POST", f"/api/pop/installs/{hostile}/changes", {"sentAt": ts(now), "changes": bad * 101}, key=key)[0]
print(f"   broken JSON: {broken}, 505 changes in one batch: {huge}")
if broken != 400 or huge not in (413, 422): sys.exit("demo_pop: broken JSON must be 400 and an oversized batch 413 or 422")
print(f"   {applied} changes applied, {refused} refused")

print("== 200 newsletter signups (20 duplicates, some names a spreadsheet would run)")
tricky = ["=HYPERLINK(\"http://evil.example\",\"click\")", "+1 605 555 0100", "-Dash Leading", "@mention", "Quote \"Q\", Comma"]
outcomes = {}
for n in range(200):
    first = rng.choice(["Alex", "Sam", "Jordan", "Taylor", "Morgan", "Casey", "Riley", "Avery", "Quinn", "Jamie"])
    name = tricky[(n // 40) % len(tricky)] if n % 40 == 0 else f"{first} {rng.choice(['Black Elk', 'Hansen', 'Olson', 'Two Bulls', 'Larson', 'Schmidt'])}"
    email = f"reader{n if n % 10 else n - 1}@example.com" if n % 10 == 0 and n else f"reader{n}@example.com"
    if n % 10 == 0 and n: email = email.upper()  # a duplicate as another phone typed it
    outcome = need("a newsletter signup", call("POST", "/api/pop/newsletter/signups", {"id": uid("signup", n), "name": name, "email": email,
                                                                  "signupDate": ts(now - timedelta(days=rng.randint(0, 28)))}, key=key), 200, 201).get("status")
    outcomes[outcome] = outcomes.get(outcome, 0) + 1
print("   " + ", ".join(f"{v} {k}" for k, v in sorted(outcomes.items(), key=str)))

print("== the civic calendar: the organiser publishes, installs follow, a reminder goes out on time")
APNS = os.environ.get("APNS_URL", f"https://127.0.0.1:{os.environ.get('APNS_PORT', '2197')}")
import ssl
def deliveries():
    """What the APNs stand-in was handed (make run APNS=standin); None without one."""
    try:
        with urllib.request.urlopen(APNS + "/standin/deliveries", timeout=10, context=ssl._create_unverified_context()) as r: return json.load(r)
    except (urllib.error.URLError, OSError):
        return None
def titles(token):
    return [((json.loads(d["payload"]).get("aps") or {}).get("alert") or {}).get("title") for d in (deliveries() or []) if d["token"] == token]
organiser = need("the organiser's sign-in", call("POST", "/api/pop/auth/login", {"org_slug": ORG, "email": "organiser@pop.demo", "password": PASSWORD}))["token"]
devices = []
for n in range(3):
    token = f"{n + 1:02x}" * 32
    # The same Idempotency-Key on a second run names the same device and secret (as an app retrying its registration).
    req = urllib.request.Request(URL + "/api/devices", method="POST", data=json.dumps({"token": token, "platform": "ios",
                                 "bundleId": "com.peopleoverpartysd.pop", "environment": "sandbox"}).encode(),
                                 headers={"X-API-Key": key, "Content-Type": "application/json", "Idempotency-Key": f"demo-install-{n}"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r: device = json.load(r)
    except urllib.error.HTTPError as e:
        sys.exit(f"demo_pop: registering an install's device answered {e.code}: {e.read()[:300]}")
    devices.append((token, device["deviceId"], device["deviceSecret"]))
town_hall = uid("event", "town hall")
wanted, bill_news = "In an hour: Town hall on the state budget", "HB 1001: Passed the House"
# What the stand-in held before (a second run finds the first run's pushes there): this run's are the ones after.
before = {d[0]: (titles(d[0]).count(wanted), titles(d[0]).count(bill_news)) for d in devices}
start = datetime.now(timezone.utc) + timedelta(hours=1, seconds=8)
need("publishing an event", call("PUT", f"/api/pop/events/{town_hall}", {"title": "Town hall on the state budget", "start": ts(start),
     "end": ts(start + timedelta(minutes=90)), "timeZone": "America/Chicago", "place": "Rapid City Public Library", "url": "https://peopleoverpartysd.com/events",
     "latitude": 44.0805, "longitude": -103.231}, token=organiser))
for n, (title, days) in enumerate([("Testify at the Capitol: a how-to", 9), ("Voter registration drive", 16)]):
    later = (datetime.now(timezone.utc) + timedelta(days=days)).replace(hour=18, minute=0, second=0, microsecond=0)
    need("publishing an event", call("PUT", f"/api/pop/events/{uid('event', n)}", {"title": title, "start": ts(later), "end": ts(later + timedelta(hours=2)),
         "timeZone": "America/Chicago", "place": "Pierre, SD", "url": "https://peopleoverpartysd.com/events"}, token=organiser))
bill = need("tracking a bill", call("POST", "/api/pop/bills", {"number": "HB 1001", "title": "An act to open primary elections", "status": "In committee",
            "url": "https://sdlegislature.gov/Session/Bills/71"}, token=organiser))
def proven(device): return {"X-Device-Id": device[1], "X-Device-Secret": device[2]}
for device in devices:
    req = urllib.request.Request(f"{URL}/api/pop/follows/event/{town_hall}", method="PUT", headers={"X-API-Key": key, **proven(device)})
    with urllib.request.urlopen(req, timeout=30) as r:
        if r.status != 204: sys.exit(f"demo_pop: following an event answered {r.status}")
req = urllib.request.Request(f"{URL}/api/pop/follows/bill/{bill['id']}", method="PUT", headers={"X-API-Key": key, **proven(devices[0])})
urllib.request.urlopen(req, timeout=30).close()
need("a bill's new status", call("POST", "/api/pop/bills", {"number": "HB 1001", "title": "An act to open primary elections", "status": "Passed the House",
     "url": "https://sdlegislature.gov/Session/Bills/71"}, token=organiser))
events = need("the app's calendar", call("GET", "/api/pop/events", key=key))["events"]
req = urllib.request.Request(f"{URL}/api/pop/events", headers={"X-API-Key": key})
with urllib.request.urlopen(req, timeout=30) as r: etag = r.headers["ETag"]
try:
    urllib.request.urlopen(urllib.request.Request(f"{URL}/api/pop/events", headers={"X-API-Key": key, "If-None-Match": etag}), timeout=30)
    sys.exit("demo_pop: the calendar answered 200 to its own ETag")
except urllib.error.HTTPError as e:
    if e.code != 304: sys.exit(f"demo_pop: the calendar with its ETag answered {e.code}")
config = need("the app's configuration", call("GET", "/api/pop/config", key=key))
print(f"   {len(events)} events and 1 bill published for {config['orgName']} ({config['stateName']}, capital {config['capital']}); ETag {etag} answers 304")
if deliveries() is None:
    print("   (no APNs stand-in here: make run APNS=standin shows the reminders arrive)")
else:
    deadline = time.time() + 60
    while time.time() < deadline and not all(titles(d[0]).count(wanted) > before[d[0]][0] for d in devices):
        time.sleep(0.2)
    late = time.time() - (start - timedelta(hours=1)).timestamp()
    if not all(titles(d[0]).count(wanted) > before[d[0]][0] for d in devices): sys.exit("demo_pop: the followers were not reminded of the town hall")
    if late < -1: sys.exit(f"demo_pop: the reminder went out {-late:.1f} s before it was due")
    if titles(devices[0][0]).count(bill_news) <= before[devices[0][0]][1]: sys.exit("demo_pop: the bill's follower heard nothing of its new status")
    print(f"   '{wanted}' reached all {len(devices)} following installs ({late:.1f} s after it was due); the bill's follower heard 'HB 1001: Passed the House'")

print(f"""
  PoP demo: the organisers' page (sign in as organiser@pop.demo, password {PASSWORD}, organisation {ORG})
    {URL}/pop/civics
  The same figures as JSON (key {key}):
    curl -H 'X-API-Key: {key}' '{URL}/api/pop/civics/hardest?deck=us-civics&minDevices=5'
  The civic calendar as the app reads it (ETag; If-None-Match answers 304):
    curl -i -H 'X-API-Key: {key}' '{URL}/api/pop/events?org={ORG}'
    curl -H 'X-API-Key: {key}' '{URL}/api/pop/config?org={ORG}'
  Newsletter export (RFC 4180, formulas neutralised):
    curl -H 'X-API-Key: {key}' '{URL}/api/pop/newsletter.csv?org={ORG}'
  Two installs of one person: push from each, then pull the merged state
    curl -X POST -H 'X-API-Key: {key}' -H 'Content-Type: application/json' {URL}/api/pop/installs/{uid('install', 0)}/changes -d '{{"sentAt": "{ts(now)}", "changes": [...]}}'
    curl -H 'X-API-Key: {key}' {URL}/api/pop/installs/{uid('install', 1)}/progress
""")
