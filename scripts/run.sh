#!/usr/bin/env bash
# Runs the whole service on this machine: builds the web client when its
# sources changed, then starts the API with every queue's workers in the same
# process, against the local PostgreSQL (the database is created and migrated
# at start). Settings come from the environment (see README.md).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -f web/dist/index.html ] || [ -n "$(find web/src web/index.html web/package.json -newer web/dist/index.html 2>/dev/null | head -1)" ]; then
  echo "building the web client..."
  (cd web && npm ci --no-audit --no-fund --loglevel=error && npm run build)
fi

mkdir -p bin
go build -o bin/api ./cmd/api
exec ./bin/api --workers "$@"
