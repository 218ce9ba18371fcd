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
	ttft         prometheus.Histogram
	tokens       *prometheus.CounterVec
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
		ttft: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "docent_llm_time_to_first_token_seconds",
			Help:    "Time from the model call to its first token, for answers a model wrote.",
			Buckets: []float64{.05, .1, .25, .5, 1, 2, 4, 8, 15, 30},
		}),
		tokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docent_llm_tokens_total",
			Help: "Tokens the model provider reported for written answers, by kind (prompt, completion).",
		}, []string{"kind"}),
	}
	m.reg.MustRegister(m.latency, m.decisions, m.fallbacks, m.streams, m.authFailures, m.rateLimited, m.ttft, m.tokens,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if sessions != nil {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "docent_index_generation",
			Help: "The knowledge generation the retrieval index was built from; it changes when a seed changes the docs.",
		}, func() float64 { return float64(sessions.Generation()) }))
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "docent_retrieval_enabled",
			Help: "1 while retrieval is on, 0 while the team's kill switch (docent admin retrieval off) has it off.",
		}, func() float64 {
			if sessions.RetrievalOn() {
				return 1
			}
			return 0
		}))
	}
	return m
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}
