// Command docent-load measures a running `docent serve` under load with
// vegeta (as a library): /api/retrieve at one rate and /api/ask, whose
// latency is a whole stream, at another, for a fixed time. It prints
// latency percentiles, throughput and status codes per endpoint, and
// exits 1 when a request failed or p99 is over --max-p99. It is its own
// binary so that docent links none of vegeta; `make load` starts the
// server and runs it.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// envToken names the variable the token comes in: an argument would show
// in the process list.
const envToken = "DOCENT_LOAD_TOKEN"

type options struct {
	url        string
	duration   time.Duration
	rate       int
	askRate    int
	cases      string
	maxP99     time.Duration
	maxQueries int
}

func main() {
	var o options
	flag.StringVar(&o.url, "url", "http://127.0.0.1:8080", "the server's base URL")
	flag.DurationVar(&o.duration, "duration", 10*time.Second, "how long each attack lasts")
	flag.IntVar(&o.rate, "rate", 200, "/api/retrieve requests per second")
	flag.IntVar(&o.askRate, "ask-rate", 20, "/api/ask streams started per second (0: none)")
	flag.StringVar(&o.cases, "cases", "testdata/acceptance.jsonl", "JSON Lines of {\"query\": …} to ask, in turn")
	flag.DurationVar(&o.maxP99, "max-p99", 0, "fail when an endpoint's p99 is above this (0: report only)")
	flag.IntVar(&o.maxQueries, "max-queries", 200, "use at most this many queries of --cases")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, o, os.Getenv(envToken), os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "docent-load: %v\n", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options, token string, out io.Writer) error {
	if token == "" {
		return fmt.Errorf("set %s to an API token (docent tokens create)", envToken)
	}
	if o.duration <= 0 || o.rate < 1 || o.askRate < 0 {
		return errors.New("--duration must be above 0, --rate at least 1 and --ask-rate at least 0")
	}
	queries, err := readQueries(o.cases, o.maxQueries)
	if err != nil {
		return err
	}
	header := http.Header{"Authorization": {"Bearer " + token}, "Content-Type": {"application/json"}}
	targets := func(path string) []vegeta.Target {
		ts := make([]vegeta.Target, len(queries))
		for i, q := range queries {
			body, _ := json.Marshal(map[string]string{"query": q})
			ts[i] = vegeta.Target{Method: "POST", URL: strings.TrimRight(o.url, "/") + path, Body: body, Header: header}
		}
		return ts
	}
	type attack struct {
		name string
		rate int
		path string
	}
	attacks := []attack{{"retrieve", o.rate, "/api/retrieve"}}
	if o.askRate > 0 {
		attacks = append(attacks, attack{"ask", o.askRate, "/api/ask"})
	}
	// The attacks run at once: retrieval is measured while streams run.
	results := make([]vegeta.Metrics, len(attacks))
	var wg sync.WaitGroup
	for i, a := range attacks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			attacker := vegeta.NewAttacker(vegeta.Timeout(30*time.Second), vegeta.KeepAlive(true))
			rate := vegeta.Rate{Freq: a.rate, Per: time.Second}
			hits := attacker.Attack(vegeta.NewStaticTargeter(targets(a.path)...), rate, o.duration, a.name)
			done := ctx.Done()
			for {
				select {
				case res, ok := <-hits:
					if !ok {
						results[i].Close()
						return
					}
					results[i].Add(res)
				case <-done:
					attacker.Stop()
					done = nil // the hits channel closes next
				}
			}
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var failed []string
	fmt.Fprintf(out, "%-9s %8s %9s %9s %9s %9s %9s %8s  %s\n", "endpoint", "requests", "rate/s", "p50", "p95", "p99", "max", "success", "status codes")
	for i, a := range attacks {
		m := results[i]
		fmt.Fprintf(out, "%-9s %8d %9.1f %9s %9s %9s %9s %7.2f%%  %v\n", a.name, m.Requests, m.Throughput,
			round(m.Latencies.P50), round(m.Latencies.P95), round(m.Latencies.P99), round(m.Latencies.Max), m.Success*100, m.StatusCodes)
		if m.Success < 1 {
			failed = append(failed, fmt.Sprintf("%s: %.2f%% succeeded (errors: %s)", a.name, m.Success*100, strings.Join(first(m.Errors, 3), "; ")))
		}
		if o.maxP99 > 0 && m.Latencies.P99 > o.maxP99 {
			failed = append(failed, fmt.Sprintf("%s: p99 %s over --max-p99 %s", a.name, round(m.Latencies.P99), o.maxP99))
		}
	}
	if len(failed) > 0 {
		return errors.New(strings.Join(failed, "; "))
	}
	return nil
}

func round(d time.Duration) time.Duration {
	if d > time.Millisecond {
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

func first(s []string, n int) []string { return s[:min(n, len(s))] }

// readQueries reads the "query" of each case, skipping the others (picks
// and continuations).
func readQueries(path string, limit int) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--cases: %w", err)
	}
	defer f.Close()
	var qs []string
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan() && len(qs) < limit; n++ {
		var c struct {
			Query string `json:"query"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("--cases %s:%d: %w", path, n, err)
		}
		if strings.TrimSpace(c.Query) != "" {
			qs = append(qs, c.Query)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("--cases %s: %w", path, err)
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("--cases %s: no queries", path)
	}
	return qs, nil
}
