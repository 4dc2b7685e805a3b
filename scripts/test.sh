#!/usr/bin/env bash
# Runs every test: the web client's unit tests and build, then the Go tests
# (unit, database, HTTP, jobs, and the end-to-end tests that drive Chromium
# against the real service with the built client embedded).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== web client: install, unit tests, build"
(cd web && npm ci --no-audit --no-fund --loglevel=error && npm test && npm run build)

echo "== go.mod and go.sum tidy"
# Prints what tidy would change and fails when it would change anything.
go mod tidy -diff

echo "== gofmt"
# Lists every Go file gofmt would change (testdata included; only the web
# client's installed packages are skipped) and fails when there is one.
unformatted=$(find . -name node_modules -prune -o -name '*.go' -print0 | xargs -0 gofmt -l)
if [ -n "$unformatted" ]; then
  echo "gofmt would change these files (run gofmt -w on them):" >&2
  echo "$unformatted" >&2
  exit 1
fi

echo "== go vet"
go vet ./...

echo "== go test"
go test -count=1 -timeout 30m ./...

# Lighthouse's performance score reads the machine's load as well as the
# page, so the recipe page is measured on its own, once nothing else runs
# (e2e/lighthouse_test.go); -v prints the scores of each run.
echo "== Lighthouse on the recipe page"
LARDER_LIGHTHOUSE=1 go test -count=1 -v -run '^TestLighthouse$' ./e2e
