// Package logctx carries log attributes in a context (a request's id, a
// job's id and kind), so that every line logged with that context carries
// them: Handler adds them to each record.
package logctx

import (
	"context"
	"log/slog"
	"time"
)

type key struct{}

// With returns ctx carrying args (slog key-value pairs or Attrs) besides
// those it carried.
func With(ctx context.Context, args ...any) context.Context {
	prev, _ := ctx.Value(key{}).([]slog.Attr)
	r := slog.NewRecord(time.Time{}, 0, "", 0)
	r.Add(args...)
	attrs := append([]slog.Attr(nil), prev...)
	r.Attrs(func(a slog.Attr) bool { attrs = append(attrs, a); return true })
	return context.WithValue(ctx, key{}, attrs)
}

// Attrs returns what ctx carries.
func Attrs(ctx context.Context) []slog.Attr {
	a, _ := ctx.Value(key{}).([]slog.Attr)
	return a
}

// Handler adds the attributes of each record's context to it.
type Handler struct{ slog.Handler }

func (h Handler) Handle(ctx context.Context, r slog.Record) error {
	if a := Attrs(ctx); len(a) > 0 {
		r = r.Clone()
		r.AddAttrs(a...)
	}
	return h.Handler.Handle(ctx, r)
}

func (h Handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return Handler{h.Handler.WithAttrs(attrs)}
}

func (h Handler) WithGroup(name string) slog.Handler { return Handler{h.Handler.WithGroup(name)} }
