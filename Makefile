# The two commands of README.md: `make run` and `make test`.
.PHONY: run test build

run:
	./scripts/run.sh

test:
	./scripts/test.sh

build:
	cd web && npm ci --no-audit --no-fund && npm run build
	go build -o bin/ ./cmd/...
