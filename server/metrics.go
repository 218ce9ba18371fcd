package server

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the server's own, in a registry of its own: two servers in
// one process (tests) never collide, and nothing else registered in the
// process leaks into /metrics. Labels are route patterns, statuses and
// fixed reasons: never a path, a query or a token.
type metrics struct {
	reg          *prometheus.Registry
	latency      *prometheus.HistogramVec
	decisions    *prometheus.CounterVec
	fallbacks    *prometheus.CounterVec
	streams      prometheus.Gauge
	authFailures *prometheus.CounterVec
	rateLimited  prometheus.Counter
}

func newMetrics(sessions Sessions) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "docent_http_request_duration_seconds",
			Help: "Time to serve a request (a whole stream, for /api/ask), by route pattern, method and status.",
			// From a cached retrieval (well under a millisecond) to a long
			// streamed answer.
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}, []string{"route", "method", "code"}),
		decisions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docent_decisions_total",
			Help: "Retrieval decisions by status (found, weak, ambiguous, no_match, multi).",
		}, []string{"status"}),
		fallbacks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docent_fallbacks_total",
			Help: "Turns that fell back: the extractive answer standing in for the model's (writer), or the docs alone when the notes could not be read (notes).",
		}, []string{"kind"}),
		streams: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "docent_sse_streams_in_flight",
			Help: "/api/ask streams being written now.",
		}),
		authFailures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docent_auth_failures_total",
			Help: "API requests refused for their token: missing, unknown or revoked.",
		}, []string{"reason"}),
		rateLimited: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "docent_rate_limited_total",
			Help: "API requests refused with 429 by a token's rate limit.",
		}),
	}
	m.reg.MustRegister(m.latency, m.decisions, m.fallbacks, m.streams, m.authFailures, m.rateLimited,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if sessions != nil {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "docent_index_generation",
			Help: "The knowledge generation the retrieval index was built from; it changes when a seed changes the docs.",
		}, func() float64 { return float64(sessions.Generation()) }))
	}
	return m
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}
