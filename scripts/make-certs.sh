#!/bin/sh
# A self-signed certificate and key for the gateway on a laptop: `make certs` (or scripts/make-certs.sh DIR).
# Valid for localhost, 127.0.0.1 and ::1 for 825 days, the longest Apple's clients accept.
# A phone or browser trusts it only once told to (install cert.pem as a profile, or accept the warning);
# production uses a certificate from a real CA, mounted the same way (MUSTER_TLS_CERT, MUSTER_TLS_KEY).
set -eu
dir=${1:-.data/tls}
if [ -s "$dir/cert.pem" ] && [ -s "$dir/key.pem" ]; then
  echo "certs: $dir/cert.pem and $dir/key.pem exist (delete them to make new ones)"
  exit 0
fi
mkdir -p "$dir"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 825 \
  -subj "/CN=localhost/O=Muster development" \
  -addext "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1" \
  -addext "extendedKeyUsage=serverAuth" \
  -keyout "$dir/key.pem" -out "$dir/cert.pem" 2>/dev/null
chmod 600 "$dir/key.pem"
echo "certs: wrote $dir/cert.pem and $dir/key.pem (self-signed, for localhost)"
