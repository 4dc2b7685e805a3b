package logctx

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
)

func TestHandlerAddsContextAttrs(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	logger := slog.New(Handler{slog.NewTextHandler(&buf, nil)}).With("component", "worker")
	ctx := With(context.Background(), "job_id", int64(42))
	ctx = With(ctx, "job_kind", "import_recipe")
	logger.InfoContext(ctx, "working")
	logger.Info("no context")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "job_id=42") || !strings.Contains(lines[0], "job_kind=import_recipe") ||
		!strings.Contains(lines[0], "component=worker") || strings.Contains(lines[1], "job_id") {
		t.Fatalf("log:\n%s", buf.String())
	}
}
