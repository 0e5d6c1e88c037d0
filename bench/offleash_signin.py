#!/usr/bin/env python3
"""Sign-in with each method the OFFLEASH app offers, on one server with the identity and SMS
stand-ins (the verifying and sending code is the production path). Prints `KEY=VALUE` lines:

  apple_rps / google_rps   returning users signing in with a fresh ID token each time (JWKS cached:
                           ES256 verification, issuer/audience/expiry checks, the identity lookup,
                           a session appended to the log);
  phone_send_rps           POST /auth/phone/send-code to distinct numbers (a code hashed and appended,
                           the text handed to the Twilio-compatible stand-in);
  phone_verify_rps         POST /auth/phone/verify with the code each number received.

usage: offleash_signin.py PORT IDENTITY_PORT SMS_PORT SECONDS CLIENTS"""
import http.client, json, sys, threading, time

port, identity_port, sms_port, seconds, clients = (int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]),
                                                   float(sys.argv[4]), int(sys.argv[5]))


def call(conn, method, path, body=None, expect=(200, 201)):
    conn.request(method, path, json.dumps(body) if body is not None else None, {"Content-Type": "application/json"})
    response = conn.getresponse()
    data = response.read()
    if response.status not in expect:
        raise SystemExit(f"{method} {path} answered {response.status}: {data[:300]!r}")
    return json.loads(data) if data else None


def mint(provider, sub, count):
    """ID tokens made ahead: minting is the provider's work, not ours."""
    conn = http.client.HTTPConnection("127.0.0.1", identity_port, timeout=30)
    return [call(conn, "POST", "/standin/token", {"provider": provider, "sub": sub, "email": f"{sub}@example.com",
                                                  "email_verified": True})["id_token"] for _ in range(count)]


def timed(work, items):
    """Runs work(conn, item) over items from CLIENTS threads; answers items done per second."""
    lock, position, done = threading.Lock(), [0], [0]

    def run():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        while True:
            with lock:
                if position[0] >= len(items):
                    return
                item = items[position[0]]
                position[0] += 1
            work(conn, item)
            with lock:
                done[0] += 1

    threads = [threading.Thread(target=run) for _ in range(clients)]
    began = time.time()
    for t in threads: t.start()
    for t in threads: t.join()
    return int(done[0] / (time.time() - began))


def provider_rate(provider):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    subs = [f"bench-{provider}-{i}" for i in range(clients)]
    for sub in subs:  # each first sign-in makes the account; the run measures returning users
        call(conn, "POST", f"/auth/{provider}", {"org_slug": "demo", "id_token": mint(provider, sub, 1)[0], "role": "customer"})
    # How many tokens the run needs: measure a short burst first, then mint for the whole run.
    probe = [(sub, token) for sub in subs for token in mint(provider, sub, 5)]
    rate = timed(lambda c, item: call(c, "POST", f"/auth/{provider}", {"org_slug": "demo", "id_token": item[1], "role": "customer"}), probe)
    per_sub = max(5, int(rate * seconds / len(subs) * 1.2))
    items = [(sub, token) for sub in subs for token in mint(provider, sub, per_sub)]
    return timed(lambda c, item: call(c, "POST", f"/auth/{provider}", {"org_slug": "demo", "id_token": item[1], "role": "customer"}), items)


print(f"apple_rps={provider_rate('apple')}")
print(f"google_rps={provider_rate('google')}")

# Phone: every number may be sent three codes an hour, so each send goes to a number of its own.
numbers = [f"+1605{5000000 + i:07d}" for i in range(int(max(200, 150 * seconds)))]
print(f"phone_send_rps={timed(lambda c, n: call(c, 'POST', '/auth/phone/send-code', {'phone': n, 'org_slug': 'demo'}), numbers)}")
messages = call(http.client.HTTPConnection("127.0.0.1", sms_port, timeout=60), "GET", "/standin/messages")
codes = {}
for message in messages:
    for word in message["body"].split():
        if len(word) == 6 and word.isdigit():
            codes[message["to"]] = word
verify = lambda c, n: call(c, "POST", "/auth/phone/verify", {"phone": n, "code": codes[n], "org_slug": "demo", "role": "customer"})
print(f"phone_verify_rps={timed(verify, [n for n in numbers if n in codes])}")
