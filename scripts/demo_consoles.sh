#!/usr/bin/env bash
# The last step of make demo: the pages people who run things sign in to, each with a sign-in that
# works (tried here: a sign-in that fails fails the demo).
set -euo pipefail
cd "$(dirname "$0")/.."
M=${MUSTER:-.build/debug/muster}
URL=${MUSTER_URL:-http://127.0.0.1:8080}

# Signs in through a page's own form as a browser does: opens the sign-in page (which sets the
# sign-in cookie and puts its token in the form), posts the form with both, and expects the
# redirect (303) with the session cookie.
signs_in() {
  local page=$1 form=$2 jar token answer
  jar=$(mktemp)
  token=$(curl -s -c "$jar" "$URL$page" | sed -n 's/.*name="csrf" value="\([0-9a-f]*\)".*/\1/p' | head -n 1)
  answer=$(curl -s -b "$jar" -o /dev/null -w '%{http_code} %header{set-cookie}' -X POST -H 'Content-Type: application/x-www-form-urlencoded' \
    --data "$form&csrf=$token" "$URL$page/login")
  rm -f "$jar"
  case "$answer" in 303\ muster_session=*) ;; *) echo "demo: signing in at $page answered: ${answer%% *}" >&2; exit 1;; esac
}

dashboards=$($M keys issue --app offleash --scopes read:analytics --label "dashboards (demo)")
operator=$($M keys issue --app platform --scopes admin:platform --label "operator console (demo)")
signs_in /moderation "org=opl&email=moderator%40opl.demo&password=Picket2026"
signs_in /pop/civics "org=pop-sd&email=organiser%40pop.demo&password=Civics2026"
signs_in /dashboards "key=$dashboards"
signs_in /admin "key=$operator"
signs_in /field "org=acme-build&email=mia%40acme.demo&password=Hardhat2026"
signs_in /offleash "org=demo&email=admin%40offleash.demo&password=Walkies2026"

echo "== the consoles, and a sign-in for each (each tried just now)"
cat <<TEXT
  Operators               $URL/admin           key $operator
  Field managers          $URL/field           mia@acme.demo / Hardhat2026 (company acme-build)
  OFFLEASH business       $URL/offleash        admin@offleash.demo / Walkies2026 (business demo)
  OPL moderation          $URL/moderation      moderator@opl.demo / Picket2026
  PoP organisers          $URL/pop/civics      organiser@pop.demo / Civics2026 (organisation pop-sd)
  Analytics dashboards    $URL/dashboards      key $dashboards
TEXT
