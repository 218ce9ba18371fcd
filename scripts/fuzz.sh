#!/usr/bin/env bash
# Runs every fuzz target in the module for a short fixed time each, as CI does:
# `go test -list` finds them, so a target added to any package is picked up
# without touching this script. FUZZTIME sets the time per target (default 10s)
# or, as Nx, the number of inputs (CI uses a count: a duration can end in a
# spurious "context deadline exceeded" on go1.26, go.dev/issue/75804);
# PKGS the packages (default ./...).
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-10s}
PKGS=${PKGS:-./...}

# `go test -list` prints a package's matching names, then "ok <package> <time>".
listing=$("$GO" test -list '^Fuzz' $PKGS)
targets=$(awk '
  /^Fuzz/ { names[++n] = $1; next }
  /^ok/   { for (i = 1; i <= n; i++) print $2, names[i]; n = 0; next }
  /^(FAIL|---)/ { print "fuzz: listing failed: " $0 > "/dev/stderr"; exit 1 }
' <<<"$listing")

if [ -z "$targets" ]; then
  echo "fuzz: no fuzz targets found in $PKGS"
  exit 0
fi
count=$(wc -l <<<"$targets")
echo "fuzz: $count targets, $FUZZTIME each"
while read -r pkg name; do
  echo "fuzz: $pkg $name"
  "$GO" test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" "$pkg"
done <<<"$targets"
