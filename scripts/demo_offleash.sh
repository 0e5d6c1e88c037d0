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
login() { TOKEN= post /auth/login "{\"org_slug\": \"demo\", \"email\": \"$1\", \"password\": \"$PASSWORD\"}" | json 'd["token"]'; }

echo "== OFFLEASH: the demo organisation"
$M people create-org --slug demo --app offleash --name "OFFLEASH Demo Walks"
add() { echo "$PASSWORD" | $M people add --org demo --role "$1" --email "$2" --first-name "$3" --last-name "$4" 2>&1 | sed 's/^/   /' || true; }
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
  TOKEN= post /auth/register "{\"org_slug\": \"demo\", \"first_name\": \"$2\", \"last_name\": \"$3\", \"email\": \"$1\", \"password\": \"$PASSWORD\"}" >/dev/null 2>&1 || true
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

cat <<INFO

  OFFLEASH demo: log in as a customer (password $PASSWORD)
    T=\$(curl -s -X POST $URL/auth/login -H 'Content-Type: application/json' \\
          -d '{"org_slug": "demo", "email": "casey@offleash.demo", "password": "$PASSWORD"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
    curl -H "Authorization: Bearer \$T" $URL/auth/validate
    curl -i -H "Authorization: Bearer \$T" '$URL/services?active=true'     # then again with If-None-Match: <ETag> → 304
    curl -H "Authorization: Bearer \$T" $URL/locations
    curl -H "Authorization: Bearer \$T" '$URL/availability/slots?service_id=<id>&location_id=<id>&date=<YYYY-MM-DD>'
    curl -H "Authorization: Bearer \$T" $URL/bookings/customer
  Walkers: sam@, jo@, lee@offleash.demo; admin: admin@offleash.demo (same password).
  Forget a customer: $M people forget --org demo --email casey@offleash.demo
INFO
