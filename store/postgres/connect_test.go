package postgres

import (
	"context"
	"errors"
	"net"
	neturl "net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docent-sh/docent/store/postgres/pgtest"
)

const testPassword = "s3cr3t-Pa55"

func checkRedacted(t *testing.T, what string, err error, mentions ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: no error", what)
	}
	msg := err.Error()
	t.Logf("%s: %s", what, msg)
	if strings.Contains(msg, testPassword) || strings.Contains(msg, "Pa55") {
		t.Errorf("%s: error reveals the password: %s", what, msg)
	}
	for _, m := range mentions {
		if !strings.Contains(msg, m) {
			t.Errorf("%s: error %q does not mention %q", what, msg, m)
		}
	}
	for e := errors.Unwrap(err); e != nil; e = errors.Unwrap(e) {
		if strings.Contains(e.Error(), testPassword) {
			t.Errorf("%s: a wrapped error reveals the password: %s", what, e)
		}
	}
}

func TestClosedPortErrorNamesTargetNotPassword(t *testing.T) {
	t.Parallel()
	url := "postgres://docent:" + testPassword + "@127.0.0.1:1/docent_prod?sslmode=disable"
	_, err := Open(t.Context(), url, Options{Migrate: true})
	checkRedacted(t, "Open", err, "127.0.0.1:1", "docent_prod")
	checkRedacted(t, "MigrateUp", MigrateUp(t.Context(), url, 0), "127.0.0.1:1", "docent_prod")
	_, err = MigrateStatus(t.Context(), url)
	checkRedacted(t, "MigrateStatus", err, "127.0.0.1:1", "docent_prod")

	kv := "host=127.0.0.1 port=1 dbname=docent_prod user=docent password='" + testPassword + "' sslmode=disable"
	_, err = Open(t.Context(), kv, Options{})
	checkRedacted(t, "Open keyword/value", err, "127.0.0.1:1", "docent_prod")
}

func TestMalformedURLErrorHidesPassword(t *testing.T) {
	t.Parallel()
	for _, url := range []string{
		"postgres://docent:" + testPassword + "@db.internal:notaport/docent",
		"postgres://docent:" + testPassword + "@db.internal:5432/docent?sslmode=sometimes",
		"host=db.internal password=" + testPassword + " port=notaport",
	} {
		_, err := Open(t.Context(), url, Options{})
		checkRedacted(t, "Open "+strings.ReplaceAll(url, testPassword, "…"), err, "invalid database URL")
	}
}

func TestMissingDatabaseErrorNamesTargetNotPassword(t *testing.T) {
	t.Parallel()
	admin := adminURL(t)
	target := pgtest.WithDatabase(t, admin, "docent_no_such_db")
	// Whatever the admin URL's user and password, connect with a known
	// password so the test can look for it in the errors.
	u, err := neturl.Parse(target)
	if err != nil || u.Scheme == "" {
		t.Skipf("%s is not a URL; this test needs one", pgtest.Env)
	}
	u.User = neturl.UserPassword(u.User.Username(), testPassword)
	_, err = Open(t.Context(), u.String(), Options{Migrate: true})
	checkRedacted(t, "Open", err, "docent_no_such_db", "does not exist")
	checkRedacted(t, "MigrateUp", MigrateUp(t.Context(), u.String(), 0), "docent_no_such_db", "does not exist")
}

// silentServer accepts connections and never answers, like a firewall
// that lets the handshake through or a server stuck before startup.
func silentServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		conns []net.Conn
	)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	return ln.Addr().String()
}

func TestOpenGivesUpAfterConnectTimeout(t *testing.T) {
	t.Parallel()
	addr := silentServer(t)
	start := time.Now()
	_, err := Open(t.Context(), "postgres://docent:"+testPassword+"@"+addr+"/docent?sslmode=disable", Options{})
	took := time.Since(start)
	checkRedacted(t, "Open", err, addr+"/docent", "timed out after 2s")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v is not a context.DeadlineExceeded", err)
	}
	// A hang would stop here at the test timeout; the bound only checks
	// that the 2 s budget, not some longer default, ended the attempt.
	if took > 2*connectTimeout {
		t.Errorf("gave up after %v, want about %v", took, connectTimeout)
	}
}

func TestOpenReturnsCallerCancellation(t *testing.T) {
	t.Parallel()
	addr := silentServer(t)
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err := Open(ctx, "postgres://docent@"+addr+"/docent?sslmode=disable", Options{})
	if !errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "timed out") {
		t.Errorf("Open cancelled by the caller: error = %v, want context.Canceled, not a timeout", err)
	}
}

func TestDescribeShowsNoCredentials(t *testing.T) {
	for _, tc := range []struct{ url, want string }{
		{"postgres://docent:" + testPassword + "@db.example.com:6543/kb?sslmode=require", "db.example.com:6543/kb"},
		{"postgres://docent@[::1]/kb", "[::1]:5432/kb"},
		{"host=/var/run/postgresql dbname=kb user=docent", "/var/run/postgresql (port 5432)/kb"},
		{"postgres://docent@db.example.com/k%1Bb", "db.example.com:5432/kb"},
	} {
		tg, err := parseTarget(tc.url)
		if err != nil {
			t.Fatalf("parseTarget(%q): %v", tc.url, err)
		}
		if tg.where != tc.want {
			t.Errorf("where(%q) = %q, want %q", tc.url, tg.where, tc.want)
		}
	}
}

func TestRedactorMasksEverySpelling(t *testing.T) {
	for _, tc := range []struct{ connString, secret string }{
		{"postgres://u:p%40ss%2Fw0rd@h/db", "p@ss/w0rd"},
		{"postgres://u:p%40ss%2Fw0rd@h/db", "p%40ss%2Fw0rd"},
		{"postgresql://u@h/db?password=hunter22&sslmode=disable", "hunter22"},
		{"postgres://u:broken:pw@h:port/db", "broken:pw"},
		{"host=h password='two words'", "two words"},
		{"host=h sslpassword=keypass", "keypass"},
	} {
		r := newRedactor(tc.connString)
		err := r.Error(errors.New("failed near `" + tc.secret + "` in " + tc.connString))
		if strings.Contains(err.Error(), tc.secret) {
			t.Errorf("%q: %q survives redaction: %s", tc.connString, tc.secret, err)
		}
		if !errors.Is(r.Error(context.Canceled), context.Canceled) {
			t.Error("redaction broke errors.Is")
		}
	}
	plain := errors.New("nothing secret here")
	if got := newRedactor("postgres://u:pw@h/db").Error(plain); got != plain {
		t.Errorf("an error without secrets was rewrapped: %v", got)
	}
}

func TestDescribeURL(t *testing.T) {
	if got := DescribeURL("postgres://docent:" + testPassword + "@db:5433/kb"); got != "postgres db:5433/kb" {
		t.Errorf("DescribeURL = %q", got)
	}
	if got := DescribeURL("postgres://docent:" + testPassword + "@db:port/kb"); strings.Contains(got, testPassword) || got == "" {
		t.Errorf("DescribeURL of a malformed URL = %q", got)
	}
	if got := (Migration{Version: 2, Name: "docs_knowledge_chunks"}).String(); got != "002_docs_knowledge_chunks" {
		t.Errorf("Migration.String() = %q", got)
	}
}
