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

# go test shows a passing package's log only with -v, so the Lighthouse
# scores the e2e phone test measured are printed from its report here.
report=e2e/screenshots/lighthouse-recipe.json
if [ -f "$report" ]; then
  node -e 'const r = require(process.argv[1]); const c = r.categories;
    const s = (k) => Math.round(c[k].score * 100);
    console.log(`== Lighthouse ${r.lighthouseVersion}, mobile, recipe page: performance ${s("performance")}, ` +
      `accessibility ${s("accessibility")}, best practices ${s("best-practices")} ` +
      `(total blocking time ${r.audits["total-blocking-time"].displayValue})`)' "$PWD/$report"
fi
