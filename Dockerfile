# One image holds the three binaries; compose runs it as api, worker or
# admin. .dockerignore keeps data/, bin/, web/node_modules and secrets out
# of the build context. scripts/docker-build-replay.sh replays these steps
# without a container engine.
FROM node:20-bookworm-slim AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web/ ./
RUN npm run build

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
COPY --from=web /src/web/dist ./web/dist
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/ ./cmd/api ./cmd/worker ./cmd/admin

FROM debian:bookworm-slim
# Chromium renders pages that refuse plain fetches or build their recipe with JavaScript.
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates chromium fonts-liberation \
    && rm -rf /var/lib/apt/lists/* && useradd --system --home /data larder && mkdir -p /data && chown larder /data
COPY --from=build /out/ /usr/local/bin/
USER larder
# Chromium runs as larder; Docker's default seccomp profile refuses the
# user namespaces its sandbox needs, so the sandbox is off in the image
# (the container, and the importer's address-checking proxy, confine it).
ENV DATA_DIR=/data LISTEN_ADDR=:8080 CHROMIUM_SANDBOX=false
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=6s --start-period=30s CMD ["api", "--healthcheck"]
CMD ["api"]
