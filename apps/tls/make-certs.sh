#!/usr/bin/env bash
# Creates a throw-away CA, a server certificate for localhost/127.0.0.1 and a client certificate for apps/tls,
# in apps/tls/tls/ (git-ignored: never commit keys). Run again to replace them. Needs openssl 1.1.1 or later.
#
#   apps/tls/make-certs.sh [days]
#
# Then, with the server running on apps/tls:
#   curl --cacert apps/tls/tls/ca.pem --cert apps/tls/tls/client-cert.pem --key apps/tls/tls/client-key.pem \
#        https://localhost:8443/document/v1/
set -euo pipefail

days="${1:-365}"
out="$(cd "$(dirname "$0")" && pwd)/tls"
mkdir -p "$out"
umask 077
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

key() { # EC P-256, written as PKCS#8 PEM
  openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1"
}

sign() { # sign <name> <subject> <extensions> <key> <cert>
  openssl req -new -key "$4" -subj "$2" -out "$work/$1.csr"
  printf '%s\n' "$3" > "$work/$1.ext"
  openssl x509 -req -in "$work/$1.csr" -CA "$out/ca.pem" -CAkey "$out/ca-key.pem" \
          -CAcreateserial -CAserial "$work/ca.srl" -days "$days" -sha256 -extfile "$work/$1.ext" -out "$5" 2>/dev/null
}

key "$out/ca-key.pem"
openssl req -x509 -new -key "$out/ca-key.pem" -subj "/CN=Sluice test CA" -days "$days" -sha256 \
        -addext "basicConstraints=critical,CA:true" -addext "keyUsage=critical,keyCertSign,cRLSign" \
        -out "$out/ca.pem"

key "$out/key.pem"
sign server "/CN=localhost" "basicConstraints=CA:false
keyUsage=critical,digitalSignature
extendedKeyUsage=serverAuth
subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1" "$out/key.pem" "$out/cert.pem"

key "$out/client-key.pem"
sign client "/CN=sluice-client" "basicConstraints=CA:false
keyUsage=critical,digitalSignature
extendedKeyUsage=clientAuth" "$out/client-key.pem" "$out/client-cert.pem"

chmod 644 "$out/ca.pem" "$out/cert.pem" "$out/client-cert.pem"
openssl verify -CAfile "$out/ca.pem" "$out/cert.pem" "$out/client-cert.pem"
echo "Wrote CA, server and client certificates and keys to $out"
