#!/usr/bin/env python3
"""Plays one device of the field app against a running Muster (`make run`), with nothing but the
standard library: it keeps its records and an offline queue in a state file, as the app keeps
Core Data, and talks the app's protocol.

  field_device.py --state ana-phone.json login --org acme-build --email ana@acme.demo --password …
  field_device.py --state ana-phone.json edit expense ID amount=47.25 notes="receipt found"   # offline: queued
  field_device.py --state ana-phone.json sync          # push the queue (an outcome each), then pull every page
  field_device.py --state ana-phone.json upload photo.jpg --break-at 65536   # resumable, with a broken connection
  field_device.py --state ana-phone.json watch --count 1    # the live WebSocket: wait for a change to arrive

Values after `=` are JSON when they parse as JSON (numbers, null, true), else strings. New records:
`edit expense new projectId=… amount="12.00" …` makes a new id. The demo (`scripts/demo_field.py`)
imports this file."""
import argparse, base64, hashlib, json, os, socket, ssl, sys, time, urllib.error, urllib.parse, urllib.request, uuid
from datetime import datetime, timezone

URL = os.environ.get("MUSTER_URL", "http://127.0.0.1:8080")


def now():
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


class Device:
    def __init__(self, state_path, url=URL):
        self.path, self.url = state_path, url
        self.state = {"deviceId": str(uuid.uuid4()), "token": None, "cursor": "0", "records": {}, "queue": []}
        if state_path and os.path.exists(state_path):
            with open(state_path) as f: self.state.update(json.load(f))

    def save(self):
        if self.path:
            with open(self.path, "w") as f: json.dump(self.state, f, indent=1)

    def call(self, method, path, body=None, headers=None, raw=None):
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.url + path, data=data, method=method)
        if body is not None: req.add_header("Content-Type", "application/json")
        if self.state.get("token"): req.add_header("Authorization", "Bearer " + self.state["token"])
        for k, v in (headers or {}).items(): req.add_header(k, v)
        try:
            with urllib.request.urlopen(req, timeout=60) as r: return r.status, dict(r.headers), r.read()
        except urllib.error.HTTPError as e: return e.code, dict(e.headers), e.read()

    def login(self, org, email, password):
        status, _, body = self.call("POST", "/api/field/auth/login", {"org_slug": org, "email": email, "password": password,
                                                                          "device_name": "field_device.py", "platform": "ios"})
        if status != 200: sys.exit(f"login failed: {status} {body.decode()}")
        answer = json.loads(body)
        known = (self.state.get("person") or {}).get("id")
        if known and known != answer["user"]["id"]:  # another account, or another server's log: nothing kept here is theirs
            self.state.update(deviceId=str(uuid.uuid4()), cursor="0", records={}, queue=[])
        self.state.update(token=answer["token"], person=answer["user"])
        self.save()
        return answer

    def edit(self, entity, record_id, fields, deleted=False):
        """Queues a change, as the app does offline; `record_id` "new" makes one."""
        record_id = str(uuid.uuid4()) if record_id == "new" else record_id.lower()
        base = self.state["records"].get(record_id, {}).get("version", 0)
        self.state["queue"].append({"mutationId": str(uuid.uuid4()), "entity": entity, "id": record_id, "baseVersion": base,
                                    "fields": {} if deleted else fields, **({"deleted": True} if deleted else {}), "changedAt": now()})
        self.save()
        return record_id

    def sync(self, quiet=False):
        """Pushes the queue (each mutation gets an outcome: the queue never wedges), then pulls every page."""
        outcomes = []
        while self.state["queue"]:
            batch = self.state["queue"][:500]
            status, _, body = self.call("POST", "/api/field/mutations", {"deviceId": self.state["deviceId"], "sentAt": now(), "mutations": batch})
            if status != 200: sys.exit(f"push failed: {status} {body.decode()}")
            outcomes += json.loads(body)["results"]
            self.state["queue"] = self.state["queue"][len(batch):]
            self.save()
        while True:
            status, _, body = self.call("GET", "/api/field/changes?" + urllib.parse.urlencode({"since": self.state["cursor"]}))
            if status != 200: sys.exit(f"pull failed: {status} {body.decode()}")
            page = json.loads(body)
            if page["full"]: self.state["records"] = {}
            for record in page["records"]:
                if record["deleted"]: self.state["records"].pop(record["id"], None)
                else: self.state["records"][record["id"]] = record
            self.state["cursor"] = page["cursor"]
            self.save()
            if not page["more"]: break
        if not quiet:
            for o in outcomes: print(f"  {o.get('mutationId', '?')[:8]}  {o['status']:8} " + (o.get("reason") or (f"server has {o['server']}" if o.get("server") else f"v{o.get('version')}")))
            print(f"  pulled: {len(self.state['records'])} records, cursor {self.state['cursor']}")
        return outcomes

    def upload(self, data, content_type="image/jpeg", break_at=None, verbose=False):
        """Uploads resumably; with `break_at`, the first append's connection drops after that many bytes."""
        # No Upload-Draft-Interop-Version on the creation: Python's http.client would take the server's 104 for the final
        # answer (it skips only 100). Upload-Complete: ?0 gets the upload's location in the 201 instead.
        headers = {"Content-Type": content_type, "Upload-Complete": "?0", "Upload-Length": str(len(data))}
        first = min(len(data), break_at or len(data)) // 2
        status, h, body = self.call("POST", "/api/field/uploads", headers=headers, raw=data[:first])
        if status != 201: sys.exit(f"upload failed: {status} {body.decode()}")
        location = h.get("Location")
        if break_at:
            self._broken_patch(location, first, data[first:break_at])
            if verbose: print(f"  connection broken after {break_at} bytes")
        status, h, _ = self.call("HEAD", location)
        offset = int(h.get("Upload-Offset", "0"))
        if verbose: print(f"  the server holds {offset} bytes; going on from there")
        status, h, body = self.call("PATCH", location, raw=data[offset:], headers={"Upload-Offset": str(offset), "Upload-Complete": "?1",
                                                                                "Content-Type": "application/partial-upload", "Upload-Draft-Interop-Version": "6"})
        if status != 200: sys.exit(f"append failed: {status} {body.decode()}")
        stored = json.loads(body)
        assert stored["digest"] == hashlib.sha256(data).hexdigest(), "the stored digest is the file's"
        return stored

    @staticmethod
    def _connect(u, timeout=None):
        """A socket to the server, over TLS when the URL says https (the compose gateway)."""
        s = socket.create_connection((u.hostname, u.port or (443 if u.scheme == "https" else 80)), timeout=timeout)
        return ssl.create_default_context().wrap_socket(s, server_hostname=u.hostname) if u.scheme == "https" else s

    def _broken_patch(self, location, offset, part):
        u = urllib.parse.urlparse(self.url)
        s = self._connect(u)
        s.sendall((f"PATCH {location} HTTP/1.1\r\nHost: {u.netloc}\r\nAuthorization: Bearer {self.state['token']}\r\n"
                   f"Upload-Draft-Interop-Version: 6\r\nUpload-Offset: {offset}\r\nUpload-Complete: ?0\r\n"
                   f"Content-Type: application/partial-upload\r\nContent-Length: {len(part) * 2}\r\n\r\n").encode() + part)
        s.close()
        time.sleep(0.3)  # the server keeps what arrived once it sees the connection gone

    def watch(self, count=1, timeout=60):
        """Opens the live WebSocket from the device's cursor and prints each message with records."""
        u = urllib.parse.urlparse(self.url)
        s = self._connect(u, timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall((f"GET /api/field/live?since={self.state['cursor']} HTTP/1.1\r\nHost: {u.netloc}\r\nUpgrade: websocket\r\n"
                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                   f"Authorization: Bearer {self.state['token']}\r\n\r\n").encode())
        reader = s.makefile("rb")
        status = reader.readline().decode()
        if " 101 " not in status: sys.exit(f"no WebSocket: {status.strip()}")
        while reader.readline() not in (b"\r\n", b""): pass
        seen = 0
        while seen < count:
            head = reader.read(2)
            opcode, length = head[0] & 0x0F, head[1] & 0x7F
            if length == 126: length = int.from_bytes(reader.read(2), "big")
            elif length == 127: length = int.from_bytes(reader.read(8), "big")
            payload = reader.read(length)
            if opcode == 0x9:  # a ping: answer it (masked, as a client must)
                mask = os.urandom(4)
                s.sendall(bytes([0x8A, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
            if opcode != 0x1: continue
            message = json.loads(payload)
            self.state["cursor"] = message["cursor"]
            for record in message["records"]:
                self.state["records"][record["id"]] = record
                print(f"  live: {record['entity']} {record['id'][:8]} v{record['version']} {json.dumps(record['fields'])[:100]}")
            seen += 1 if message["records"] else 0
        self.save()
        s.close()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--state", required=True, help="the device's file (records, queue, cursor, token)")
    sub = p.add_subparsers(dest="command", required=True)
    login = sub.add_parser("login"); login.add_argument("--org", required=True); login.add_argument("--email", required=True); login.add_argument("--password", required=True)
    edit = sub.add_parser("edit"); edit.add_argument("entity"); edit.add_argument("id"); edit.add_argument("fields", nargs="*"); edit.add_argument("--delete", action="store_true")
    sub.add_parser("sync")
    up = sub.add_parser("upload"); up.add_argument("file"); up.add_argument("--type", default="image/jpeg"); up.add_argument("--break-at", type=int)
    watch = sub.add_parser("watch"); watch.add_argument("--count", type=int, default=1)
    sub.add_parser("show")
    args = p.parse_args()
    device = Device(args.state)
    if args.command == "login":
        person = device.login(args.org, args.email, args.password)["user"]
        print(f"signed in as {person['first_name']} {person['last_name']} ({person['role']}), device {device.state['deviceId']}")
    elif args.command == "edit":
        fields = {}
        for pair in args.fields:
            name, _, value = pair.partition("=")
            try: fields[name] = json.loads(value)
            except ValueError: fields[name] = value
        print(f"queued: {args.entity} {device.edit(args.entity, args.id, fields, deleted=args.delete)} ({len(device.state['queue'])} waiting)")
    elif args.command == "sync":
        device.sync()
    elif args.command == "upload":
        with open(args.file, "rb") as f: stored = device.upload(f.read(), args.type, args.break_at, verbose=True)
        print(f"stored: {stored['digest']} ({stored['size']} bytes, {stored['type']})")
    elif args.command == "watch":
        device.watch(args.count)
    elif args.command == "show":
        for r in sorted(device.state["records"].values(), key=lambda r: (r["entity"], r["id"])):
            print(f"  {r['entity']:9} {r['id']} v{r['version']} {json.dumps(r['fields'])[:120]}" + (f"  REVIEW: {r['review']}" if r["review"] else ""))


if __name__ == "__main__":
    main()
