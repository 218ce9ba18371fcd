// Package requestid carries the id of the request being served in its
// context, so that every line logged while serving it, by whichever
// package, names the request its access log line does. It is the one
// place that defines the id's context key and its log attribute.
package requestid

import (
	"context"
	"log/slog"
)

// Key is the log attribute the id is written under.
const Key = "request_id"

type key struct{}

// With returns ctx carrying id.
func With(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, key{}, id)
}

// From is the id ctx carries, "" for none.
func From(ctx context.Context) string {
	id, _ := ctx.Value(key{}).(string)
	return id
}

// Handler adds the request id of the context a line is logged with (the
// Context forms of slog's methods) to every line that has none yet: code
// below the server logs with the context it is given, never with a
// logger made per request. Wrapping a Handler again returns it as is.
// Within a group (WithGroup), the id goes into the group.
func Handler(next slog.Handler) slog.Handler {
	if h, ok := next.(*handler); ok {
		return h
	}
	return &handler{next: next}
}

type handler struct {
	next slog.Handler
	// has says the logger already carries the id as an attribute of its
	// own (Logger.With): adding it again would write the key twice.
	has bool
}

func (h *handler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.next.Enabled(ctx, level)
}

func (h *handler) Handle(ctx context.Context, r slog.Record) error {
	if !h.has && ctx != nil {
		if id := From(ctx); id != "" {
			r = r.Clone()
			r.AddAttrs(slog.String(Key, id))
		}
	}
	return h.next.Handle(ctx, r)
}

func (h *handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	has := h.has
	for _, a := range attrs {
		has = has || a.Key == Key
	}
	return &handler{next: h.next.WithAttrs(attrs), has: has}
}

func (h *handler) WithGroup(name string) slog.Handler {
	return &handler{next: h.next.WithGroup(name), has: h.has}
}
