#!/usr/bin/env bash
# Replays the Dockerfile's build steps without a container engine (none runs
# on the development machines): the build context is copied into a clean
# directory through .dockerignore's rules (as `docker build` sends it), each
# stage's commands run there, and the result is checked:
#   - nothing .dockerignore excludes (data/, bin/, web/node_modules, .env,
#     dev secrets, backups) reached the context;
#   - the web client builds from package-lock.json alone (npm ci);
#   - the three binaries build with CGO_ENABLED=0 and answer --help and
#     --healthcheck (which must fail: nothing is running).
# The apt-get line of the final stage is not replayed (it needs root and
# Debian's archive); see README's production section for what that leaves.
#
#   scripts/docker-build-replay.sh [WORKDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
work=${1:-$(mktemp -d /tmp/larder-docker-replay.XXXXXX)}
ctx=$work/context
rm -rf "$ctx" && mkdir -p "$ctx"

# .dockerignore → rsync excludes: a plain pattern is anchored at the root of
# the context, **/ matches at any depth.
excludes=$work/excludes
grep -v '^\s*#' .dockerignore | sed '/^\s*$/d' | while read -r p; do
  case "$p" in
    '**/'*) echo "${p#\*\*/}" ;;
    *) echo "/$p" ;;
  esac
done >"$excludes"
rsync -a --exclude-from="$excludes" "$src"/ "$ctx"/

echo "== context: $(du -sh "$ctx" | cut -f1)"
for banned in data bin web/node_modules web/dist/index.html .env .git; do
  if [ -e "$ctx/$banned" ]; then
    echo "FAIL: $banned is in the build context" >&2
    exit 1
  fi
done
if find "$ctx" -name 'dev-secrets.json' -o -name 'backup-*.zip' | grep -q .; then
  echo "FAIL: secrets or backups in the build context" >&2
  exit 1
fi

echo "== stage web: npm ci && npm run build"
(cd "$ctx/web" && npm ci --no-audit --no-fund --loglevel=error && npm run build >/dev/null)

echo "== stage build: go mod download && go build"
(cd "$ctx" && go mod download && CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o "$work/out/" ./cmd/api ./cmd/worker ./cmd/admin)

echo "== final stage: the binaries run"
"$work/out/admin" --help >/dev/null
for b in api worker; do
  if LISTEN_ADDR=127.0.0.1:1 DATABASE_URL=postgres://nobody@127.0.0.1:1/none "$work/out/$b" --healthcheck 2>/dev/null; then
    echo "FAIL: $b --healthcheck passed with nothing running" >&2
    exit 1
  fi
done
echo "ok: the Dockerfile's build steps pass in $work"
