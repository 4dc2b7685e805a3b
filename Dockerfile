# One image holds the three binaries; compose runs it as api or worker.
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
ENV DATA_DIR=/data LISTEN_ADDR=:8080
EXPOSE 8080
CMD ["api"]
