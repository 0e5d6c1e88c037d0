#!/usr/bin/env bash
# The last step of make demo: the pages people who run things sign in to, each with a sign-in that
# works (tried here: a sign-in that fails fails the demo).
set -euo pipefail
cd "$(dirname "$0")/.."
M=${MUSTER:-.build/debug/muster}
URL=${MUSTER_URL:-http://127.0.0.1:8080}

# Signs in to a page's form and expects its redirect (303) with the session cookie.
signs_in() {
  local path=$1 form=$2 answer
  answer=$(curl -s -o /dev/null -w '%{http_code} %header{set-cookie}' -X POST -H 'Content-Type: application/x-www-form-urlencoded' \
    --data "$form" "$URL$path")
  case "$answer" in 303\ muster_session=*) ;; *) echo "demo: signing in at $path answered: ${answer%% *}" >&2; exit 1;; esac
}

dashboards=$($M keys issue --app offleash --scopes read:analytics --label "dashboards (demo)")
signs_in /moderation/login "org=opl&email=moderator%40opl.demo&password=Picket2026"
signs_in /pop/civics/login "org=pop-sd&email=organiser%40pop.demo&password=Civics2026"
signs_in /dashboards/login "key=$dashboards"

echo "== the consoles, and a sign-in for each (each tried just now)"
cat <<TEXT
  OPL moderation          $URL/moderation      moderator@opl.demo / Picket2026
  PoP organisers          $URL/pop/civics      organiser@pop.demo / Civics2026 (organisation pop-sd)
  Analytics dashboards    $URL/dashboards      key $dashboards
TEXT
