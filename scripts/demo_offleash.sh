#!/usr/bin/env bash
# OFFLEASH's demo organisation in a running Muster (`make run`): the `demo` org, an admin, three
# walkers with working hours, services (one retired), two customers with locations and a few
# bookings. Prints a customer login to try with curl. Run it again: what exists is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
M=${MUSTER:-.build/debug/muster}
URL=${MUSTER_URL:-http://127.0.0.1:8080}
PASSWORD=Walkies2026

json() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }
post() { curl -fsS -X "${3:-POST}" -H "Content-Type: application/json" ${TOKEN:+-H "Authorization: Bearer $TOKEN"} -d "$2" "$URL$1"; }
get() { curl -fsS ${TOKEN:+-H "Authorization: Bearer $TOKEN"} "$URL$1"; }
# answer METHOD PATH BODY: the status, the body in $answer_file; allow STATUS OK…: stop unless it is one of them
# (a second run on the same data meets what the first one made: a 409 there is expected, nothing else).
answer_file=$(mktemp); trap 'rm -f "$answer_file"' EXIT
answer() { curl -sS -o "$answer_file" -w '%{http_code}' -X "$1" -H "Content-Type: application/json" ${TOKEN:+-H "Authorization: Bearer $TOKEN"} ${3:+-d "$3"} "$URL$2"; }
allow() { local got=$1; shift; for ok in "$@"; do [ "$got" = "$ok" ] && return 0; done
  echo "demo_offleash: answered $got, expected one of $*: $(head -c 300 "$answer_file")" >&2; exit 1; }
login() { TOKEN= post /auth/login "{\"org_slug\": \"demo\", \"email\": \"$1\", \"password\": \"$PASSWORD\"}" | json 'd["token"]'; }

echo "== OFFLEASH: the demo organisation"
$M people create-org --slug demo --app offleash --name "OFFLEASH Demo Walks"
add() {
  local out
  if out=$(echo "$PASSWORD" | $M people add --org demo --role "$1" --email "$2" --first-name "$3" --last-name "$4" 2>&1); then echo "   $out"
  else case "$out" in *"already exists"*) echo "   $2 is there already";; *) echo "demo_offleash: $out" >&2; exit 1;; esac; fi
}
add admin admin@offleash.demo Avery Admin
add walker sam@offleash.demo Sam Strider
add walker jo@offleash.demo Jo Jogger
add walker lee@offleash.demo Lee Leash

TOKEN=$(login admin@offleash.demo)
echo "== walkers' hours (America/Chicago): Mon-Fri 08:00-18:00, Sat 09:00-13:00"
shifts='[{"weekday":1,"start":"08:00","end":"18:00"},{"weekday":2,"start":"08:00","end":"18:00"},{"weekday":3,"start":"08:00","end":"18:00"},{"weekday":4,"start":"08:00","end":"18:00"},{"weekday":5,"start":"08:00","end":"18:00"},{"weekday":6,"start":"09:00","end":"13:00"}]'
for walker in $(get /walkers | json '" ".join(w["id"] for w in d)'); do
  post "/walkers/$walker/roster" "{\"time_zone\": \"America/Chicago\", \"shifts\": $shifts}" PUT
done
if [ "$(get /services | json 'len(d)')" = "0" ]; then
  echo "== services"
  post /services '{"name": "30 minute walk", "description": "A brisk walk around the neighbourhood", "duration_minutes": 30, "price_cents": 2500}' >/dev/null
  post /services '{"name": "60 minute adventure", "description": "A long walk to the park and back", "duration_minutes": 60, "price_cents": 4000}' >/dev/null
  post /services '{"name": "Puppy visit", "description": "A short visit, play and a potty break", "duration_minutes": 20, "price_cents": 1800}' >/dev/null
  post /services '{"name": "Group hike (retired)", "duration_minutes": 120, "price_cents": 6000, "is_active": false}' >/dev/null
fi

customer() { # email first last address zip lat lng
  allow "$(TOKEN= answer POST /auth/register "{\"org_slug\": \"demo\", \"first_name\": \"$2\", \"last_name\": \"$3\", \"email\": \"$1\", \"password\": \"$PASSWORD\"}")" 201 409
  TOKEN=$(login "$1")
  if [ "$(get /locations | json 'len(d)')" = "0" ]; then
    post /locations "{\"name\": \"Home\", \"address\": \"$4\", \"city\": \"Rapid City\", \"state\": \"SD\", \"zip_code\": \"$5\", \"latitude\": $6, \"longitude\": $7}" >/dev/null
  fi
}
book() { # days-ahead HH:MM (UTC) service-index
  local service location day
  service=$(get '/services?active=true' | json "d[$3]['id']")
  location=$(get /locations | json 'd[0]["id"]')
  day=$(python3 -c "import datetime as t; d=t.date.today()+t.timedelta(days=$1); d+=t.timedelta(days=(7-d.weekday())%7 if d.weekday()>4 else 0); print(d)")
  curl -fsS -X POST -H "Content-Type: application/json" -H "Authorization: Bearer $TOKEN" -H "Idempotency-Key: demo-$1-$2-$3" \
    -d "{\"walker_id\": null, \"service_id\": \"$service\", \"location_id\": \"$location\", \"start_time\": \"${day}T$2:00Z\", \"notes\": \"Demo booking\"}" \
    "$URL/bookings" >/dev/null 2>&1 || echo "   (no walker free for day +$1 at $2 UTC)"
}
echo "== customers, locations, bookings"
customer casey@offleash.demo Casey Customer "12 Main St" 57701 44.0805 -103.2310
book 1 15:00 0; book 2 16:00 1
customer riley@offleash.demo Riley Rover "400 Elm Ave" 57702 44.0601 -103.2566
book 1 15:00 0; book 3 14:30 2

echo "== a walker's day (sam@): a lunch break, the pending requests accepted, the profile"
TOKEN=$(login sam@offleash.demo)
lunch=$(python3 -c "import datetime as t; d=t.date.today()+t.timedelta(days=1); print(d)")
if [ "$(get /blocks | json 'len(d)')" = "0" ]; then
  post /blocks "{\"reason\": \"Lunch\", \"start_time\": \"${lunch}T18:00:00Z\", \"end_time\": \"${lunch}T19:00:00Z\"}" >/dev/null
fi
for booking in $(get /bookings/walker | json '" ".join(b["id"] for b in d if b["status"] == "pending")'); do
  allow "$(answer POST "/bookings/$booking/confirm" '')" 200 409 # two requests for one slot: the second is refused
done
post /walker/profile '{"bio": "Walking dogs in Rapid City since 2019", "specializations": ["largeBreeds", "puppies"]}' PUT >/dev/null
sam_confirmed=$(get /bookings/walker | json 'sum(b["status"] == "confirmed" for b in d)')
echo "   sam: $(get /bookings/walker | json 'len(d)') walks ($sam_confirmed confirmed), $(get /blocks | json 'len(d)') block(s)"

echo "== what OFFLEASH told its people (the notifier's rules: pushes to their devices, mail as their settings say)"
TOKEN=$(login casey@offleash.demo)
get /api/offleash/me/notifications | json '"   casey@'"'"'s settings: " + ", ".join(c["category"] + " " + "+".join(k for k, v in sorted(c["channels"].items()) if v) for c in d["categories"])'
if [ -z "${SMS_PORT:-}" ]; then
  echo "   (no mail provider here: make run SIGNIN=standin keeps every mail at the stand-in's /standin/messages)"
else
  # The rules run on the notifier, after the events: give them a moment.
  for _ in $(seq 1 100); do
    mails=$(curl -fsS "http://127.0.0.1:$SMS_PORT/standin/messages")
    echo "$mails" | json 'any(m.get("subject") == "OFFLEASH: walk confirmed" for m in d) or '"$sam_confirmed"' == 0' | grep -q True \
      && echo "$mails" | json 'any(m.get("subject") == "OFFLEASH: new walk request" for m in d)' | grep -q True && break
    sleep 0.1
  done
  echo "$mails" | json '"   mailed: " + ", ".join(f"{n} x {s}" for s, n in sorted(__import__("collections").Counter(m["subject"] for m in d if m.get("subject", "").startswith("OFFLEASH: ")).items()))'
  echo "$mails" | json 'all(m.get("headers", {}).get("List-Unsubscribe-Post") == "List-Unsubscribe=One-Click" for m in d if m.get("subject", "").startswith("OFFLEASH: walk"))' | grep -q True \
    || { echo "   a notification mail came without its one-click unsubscribe" >&2; exit 1; }
  echo "$mails" | json 'any(m.get("subject") == "OFFLEASH: new walk request" for m in d)' | grep -q True \
    || { echo "   no walker was mailed of a walk request" >&2; exit 1; }
  # The walks sam confirmed (the bookings above go to whichever walker is free) are mailed to their customers.
  [ "$sam_confirmed" = 0 ] || echo "$mails" | json 'any(m.get("subject") == "OFFLEASH: walk confirmed" for m in d)' | grep -q True \
    || { echo "   sam confirmed walks and no customer was mailed so" >&2; exit 1; }
fi

echo "== a customer's day (casey@): a pet, a recurring walk, a paid booking refunded, a subscription"
TOKEN=$(login casey@offleash.demo)
if [ "$(get /pets | json 'len(d["pets"])')" = "0" ]; then
  post /pets '{"name": "Biscuit", "species": "dog", "gender": "female", "is_spayed_neutered": true, "vaccination_status": "up_to_date", "breed": "Beagle", "date_of_birth": "2021-05-01", "weight_lbs": 24.5}' >/dev/null
fi
service=$(get '/services?active=true' | json "d[0]['id']")
location=$(get /locations | json 'd[0]["id"]')
next_tuesday=$(python3 -c "import datetime as t; d=t.date.today()+t.timedelta(days=7); d+=t.timedelta(days=(1-d.weekday())%7); print(d)")
series=$(post /bookings/recurring "{\"service_id\": \"$service\", \"location_id\": \"$location\", \"frequency\": \"weekly\", \"day_of_week\": 2, \"start_time\": \"10:00 AM\", \"start_date\": \"$next_tuesday\", \"occurrences\": 4}")
echo "   recurring walk: $(echo "$series" | json 'd["frequency"] + " " + d["time_slot"] + ", next " + str(d.get("next_booking_date"))')"
if [ "$(get /payment-methods | json 'len(d)')" = "0" ]; then
  post /payment-methods '{"method_type": "card", "card_last_four": "4242", "card_brand": "visa", "card_exp_month": 12, "card_exp_year": 2031, "is_default": true}' >/dev/null
fi
card=$(get /payment-methods | json 'd[0]["id"]')
first=$(get /bookings/customer | json 'sorted((b for b in d if b["status"] != "cancelled" and not b.get("series")), key=lambda b: b["scheduled_start"])[0]["id"]')
if [ -z "${PAYMENTS_PORT:-}" ]; then
  echo "   (no payment provider here: make run PAYMENTS=standin charges through a local stand-in of Stripe's API)"
else
  status=$(answer POST /checkout "{\"booking_id\": \"$first\", \"payment_method_id\": \"$card\", \"subtotal_cents\": 2500, \"tip_cents\": 375, \"provider_user_id\": \"\"}")
  if [ "$status" = 409 ]; then
    echo "   (the first walk is paid already: an earlier run paid and refunded it)"
  else
    allow "$status" 200 201
    transaction=$(json 'd["transaction_id"]' < "$answer_file")
    post "/checkout/$transaction/confirm" "{\"payment_method_id\": \"$card\"}" | json '"   paid: " + d["status"] + ", " + str(d["total_cents"]) + " cents"'
    post "/checkout/$transaction/refund" '{}' | json '"   refunded: " + str(d["refund_amount_cents"]) + " cents"'
  fi
fi
post /subscriptions/customer '{"name": "Weekday Walks", "description": "5 walks a week", "price_cents": 9900, "interval": "week", "auto_create_bookings": true}' >/dev/null
echo "   $(get /pets | json 'str(len(d["pets"])) + " pet(s)"'), $(get /bookings/recurring | json 'str(len(d["recurring_bookings"])) + " series"'), $(get /transactions | json 'str(len(d)) + " transaction(s)"'), $(get /subscriptions/customer | json 'str(len(d)) + " subscription(s)"')"

if [ -n "${IDENTITY_PORT:-}" ] && [ -n "${SMS_PORT:-}" ]; then
  echo "== signing in with Apple and with a phone number (the local stand-ins of make run SIGNIN=standin)"
  apple=$(curl -fsS -X POST -H 'Content-Type: application/json' -d '{"provider": "apple", "sub": "000123.demo", "email": "morgan@privaterelay.appleid.com"}' \
    "http://127.0.0.1:$IDENTITY_PORT/standin/token" | json 'd["id_token"]')
  TOKEN= post /auth/apple "{\"org_slug\": \"demo\", \"id_token\": \"$apple\", \"first_name\": \"Morgan\", \"role\": \"customer\"}" | json '"   apple: " + d["user"]["email"]'
  TOKEN= post /auth/phone/send-code '{"phone": "+16055550100", "org_slug": "demo"}' >/dev/null || echo "   (a code was sent to this number three times this hour already)"
  code=$(curl -fsS "http://127.0.0.1:$SMS_PORT/standin/messages" | json '[w for m in d if m["to"] == "+16055550100" for w in m["body"].split() if len(w) == 6 and w.isdigit()][-1]')
  TOKEN= post /auth/phone/verify "{\"phone\": \"+16055550100\", \"code\": \"$code\", \"org_slug\": \"demo\", \"role\": \"customer\"}" | json '"   phone: " + d["user"]["phone"]'

  echo "== Morgan starts a business and invites Sam to walk for it (the invitation by email, through the SendGrid stand-in)"
  MORGAN=$(TOKEN= post /auth/apple "{\"org_slug\": \"demo\", \"id_token\": \"$apple\", \"role\": \"customer\"}" | json 'd["token"]')
  owner=$(TOKEN=$MORGAN get /contexts | json '([m["id"] for m in d["memberships"] if m["role"] == "owner"] + [""])[0]')
  [ -n "$owner" ] || owner=$(TOKEN=$MORGAN post /walker/create-tenant '{"business_name": "Morgan'"'"'s Mutts", "slug": "morgans-mutts"}' | json 'd["membership_id"]')
  OWNER=$(TOKEN=$MORGAN post /contexts/switch "{\"membership_id\": \"$owner\"}" | json 'd["token"]')
  SAM=$(login sam@offleash.demo)
  if [ "$(TOKEN=$SAM get /contexts | json 'sum(m["organization_slug"] == "morgans-mutts" for m in d["memberships"])')" != "0" ]; then
    echo "   (Sam walks for Morgan's Mutts already)"
  else
    TOKEN=$OWNER post /walker/invite '{"email": "sam@offleash.demo"}' | json '"   invitation: " + d["message"]'
    invite=$(curl -fsS "http://127.0.0.1:$SMS_PORT/standin/messages" | json '[w.rstrip(".") for m in d if m["to"] == "sam@offleash.demo" for w in m["body"].split() if len(w) == 33][-1]')
    TOKEN=$SAM post /walker/join-tenant "{\"invite_token\": \"$invite\"}" | json '"   sam@: " + d["message"]'
  fi
fi

cat <<INFO

  OFFLEASH demo: log in as a customer (password $PASSWORD)
    T=\$(curl -s -X POST $URL/auth/login -H 'Content-Type: application/json' \\
          -d '{"org_slug": "demo", "email": "casey@offleash.demo", "password": "$PASSWORD"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
    curl -H "Authorization: Bearer \$T" $URL/auth/validate
    curl -i -H "Authorization: Bearer \$T" '$URL/services?active=true'     # then again with If-None-Match: <ETag> → 304
    curl -H "Authorization: Bearer \$T" $URL/locations
    curl -H "Authorization: Bearer \$T" '$URL/availability/slots?service_id=<id>&location_id=<id>&date=<YYYY-MM-DD>'
    curl -H "Authorization: Bearer \$T" $URL/bookings/customer
    curl -H "Authorization: Bearer \$T" $URL/contexts                       # the membership that picks the customer tabs
    curl -H "Authorization: Bearer \$T" $URL/pets
    curl -H "Authorization: Bearer \$T" $URL/bookings/recurring
    curl -H "Authorization: Bearer \$T" $URL/payment-methods; curl -H "Authorization: Bearer \$T" $URL/transactions
    curl -H "Authorization: Bearer \$T" $URL/subscriptions/customer
    curl -H "Authorization: Bearer \$T" $URL/users/me/identities
  A walker's day: log in as sam@offleash.demo, then GET /bookings/walker, /blocks, /walker/profile.
  Walkers: sam@, jo@, lee@offleash.demo; admin: admin@offleash.demo (same password).
  Forget a customer: $M people forget --org demo --email casey@offleash.demo
INFO
