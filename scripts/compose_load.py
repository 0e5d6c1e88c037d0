#!/usr/bin/env python3
"""Write load for the compose test: WRITERS threads submit OPL actions through the gateway over
HTTPS, each with an Idempotency-Key; a write that fails (a container killed under it) is retried with
the same key until it is taken. Every acknowledged write's name goes to ACKED (one per line).

  compose_load.py URL KEY SECONDS ACKED [WRITERS]   (SSL_CERT_FILE names the gateway's certificate)

With LOAD_READ_KEY (a key with read:mobile) a reader asks /api/mobile/active-strikes (a projection
the query replicas fold) about 400 times a minute. With LOAD_STRICT=1 the run fails (exit 3) when
any answer was other than a 2xx or a 503 with Retry-After: what a rolling upgrade may answer. With
LOAD_STOP_FILE the load also ends once that file exists.

`compose_load.py check ACKED TAIL [SINCE [WHAT]]` then reads `muster tail` output and prints how many acknowledged
writes are missing from the log and how many are in it twice; it exits 1 if any, or if no write was acknowledged after SINCE (seconds since the epoch)."""
import collections, json, os, ssl, sys, threading, time, urllib.error, urllib.request


def write(url, key, until, acked, lock, writer, stats):
    context = ssl.create_default_context()
    item = 0
    while going(until):
        item += 1
        name = f"w{writer}-{item}"
        body = json.dumps({"employer": {"name": f"Compose Freight {writer}"},
                           "action": {"organization": f"Local {writer}", "actionType": "strike", "location": "Rapid City, SD",
                                      "startDate": "2026-11-01", "durationDays": 3, "description": name}}).encode()
        while True:
            request = urllib.request.Request(url + "/api/mobile/submit-strike", data=body, method="POST",
                                             headers={"X-API-Key": key, "Idempotency-Key": name, "Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=30, context=context) as response:
                    status, headers = response.status, response.headers
            except urllib.error.HTTPError as error:
                status, headers = error.code, error.headers
                if status not in stats["said"]:  # what each kind of failure said, once
                    stats["said"][status] = f"{error.headers.get('Server', '?')}: {error.read(200).decode(errors='replace')}"
            except Exception as error:
                status = 0
                headers = {}
                stats["said"].setdefault(0, f"{type(error).__name__}: {error} (at {time.strftime('%H:%M:%S')})")
            note(stats, status, headers)
            if status == 201:
                with lock:
                    acked.write(f"{name}\t{time.time():.3f}\n")
                    stats["acked"] += 1
                break
            stats["retries"] += 1
            stats[status] += 1
            if time.time() > until + 60:  # the stack never came back: the check below says so
                return
            time.sleep(0.2)


def going(until):
    """Until SECONDS have passed, or LOAD_STOP_FILE exists (the step under load is over)."""
    return time.time() < until and not (os.environ.get("LOAD_STOP_FILE") and os.path.exists(os.environ["LOAD_STOP_FILE"]))


def note(stats, status, headers):
    """Counts an answer a rolling upgrade may not give: anything but a 2xx or a 503 with Retry-After."""
    if not (200 <= status < 300 or (status == 503 and headers.get("Retry-After"))):
        stats["wrong"] += 1


def read(url, key, until, stats):
    context = ssl.create_default_context()
    while going(until):
        request = urllib.request.Request(url + "/api/mobile/active-strikes", headers={"X-API-Key": key})
        headers = {}
        try:
            # Longer than the gateway's 30 s for an answer, so that its own answer is the one seen.
            with urllib.request.urlopen(request, timeout=40, context=context) as response:
                response.read()
                status, headers = response.status, response.headers
        except urllib.error.HTTPError as error:
            status, headers = error.code, error.headers
            if f"read {status}" not in stats["said"]:
                stats["said"][f"read {status}"] = f"{error.headers.get('Server', '?')}: {error.read(200).decode(errors='replace')}"
        except Exception as error:
            status = 0
            stats["said"].setdefault("read 0", f"{type(error).__name__}: {error} (at {time.strftime('%H:%M:%S')})")
        note(stats, status, headers)
        stats["reads"] += 1
        stats[f"read {status}"] += 1
        time.sleep(0.15)  # 400 a minute: under the key's read limit (600), as a client keeps


def load(url, key, seconds, path, writers=4):
    started = time.time()
    until = started + float(seconds)
    lock = threading.Lock()
    stats = collections.Counter()
    stats["said"] = {}
    with open(path, "w") as acked:
        threads = [threading.Thread(target=write, args=(url, key, until, acked, lock, w, stats)) for w in range(int(writers))]
        if os.environ.get("LOAD_READ_KEY"):
            threads.append(threading.Thread(target=read, args=(url, os.environ["LOAD_READ_KEY"], until, stats)))
        for t in threads: t.start()
        for t in threads: t.join()
    failed = ", ".join(f"{n} {'no answer' if code == 0 else code}" for code, n in sorted((k, v) for k, v in stats.items() if isinstance(k, int)))
    print(f"load: {stats['acked']} writes acknowledged in {time.time() - started:.0f} s, {stats['retries']} failed attempts retried with their key ({failed or 'none'})")
    if stats["reads"]:
        answers = ", ".join(f"{n} {k.split()[1]}" for k, n in sorted((k, n) for k, n in stats.items() if isinstance(k, str) and k.startswith("read ")))
        print(f"load: {stats['reads']} reads of a projection ({answers})")
    for code, said in sorted(stats["said"].items(), key=str):
        print(f"load: the first {code} said: {said}")
    if os.environ.get("LOAD_STRICT") == "1":
        print(f"load: {stats['wrong']} answers other than a 2xx or a 503 with Retry-After")
        if stats["wrong"]:
            sys.exit(3)


def check(acked_path, tail_path, since=None, what="the kill"):
    lines = [line.split() for line in open(acked_path) if line.strip()]
    acked = [fields[0] for fields in lines]
    if since is not None:
        after = sum(1 for fields in lines if float(fields[1]) > float(since))
        print(f"check: {after} writes acknowledged after {what}")
        if after == 0:
            print("  writes did not go on")
            sys.exit(1)
    copies = collections.Counter()
    majors = {}
    for line in open(tail_path):
        parts = line.rstrip("\n").split("\t", 3)
        if len(parts) == 4 and parts[2].startswith("events.opl.action.") and "submitted" in parts[2]:
            try:
                name = json.loads(parts[3]).get("action", {}).get("description", "")
            except ValueError:
                continue
            copies[name] += 1
            majors[name] = parts[2].rsplit(".", 1)[-1]
    missing = [name for name in acked if copies[name] == 0]
    twice = [name for name, n in copies.items() if n > 1 and name.startswith("w")]
    written = collections.Counter(majors[name] for name in acked if name in majors)
    print(f"check: {len(acked)} acknowledged writes, {len(missing)} missing from the log, {len(twice)} in it twice"
          f" (stored as {', '.join(f'{major} {n}' for major, n in sorted(written.items()))})")
    if missing or twice:
        print(f"  missing: {missing[:20]}\n  twice: {twice[:20]}")
        sys.exit(1)


if __name__ == "__main__":
    if sys.argv[1] == "check":
        check(*sys.argv[2:])
    else:
        load(*sys.argv[1:])
