package retrieval

import (
	"math"
	"testing"

	"github.com/docent-sh/docent/retrieval/retrievaltest"
)

func TestDecide(t *testing.T) {
	th := thresholds{minCoverage: 0.5, minMargin: 0.25}
	// c builds a candidate: doc, rank, coverage, naming; its best unit
	// covers what the doc covers.
	c := func(doc int32, rank, coverage, naming float64) candidate {
		return candidate{doc: doc, rank: rank, coverage: coverage, together: coverage, naming: naming}
	}
	// apart has c's doc cover its words only across its units, its best
	// one covering together of them.
	apart := func(c candidate, together float64) candidate {
		c.together = together
		return c
	}
	// named sets the keys a candidate's title or headings carry.
	named := func(c candidate, bits uint64) candidate {
		c.named = bits
		return c
	}
	// written has the docs write every word of the question, and c's best
	// unit every name it writes.
	written := func(c candidate) candidate {
		c.written = true
		return c
	}
	tests := []struct {
		name     string
		ranked   []candidate
		form     form
		status   Status
		rule     string
		rival    int
		wantConf float64
	}{
		{"nothing retrieved", nil, formQuestion, StatusNoMatch, RuleTopZero, -1, 0},
		{"top is zero", []candidate{c(0, 0, 1, 1)}, formQuestion, StatusNoMatch, RuleTopZero, -1, 0},
		{"less than half the question covered", []candidate{c(0, 9, 0.49, 0.49)}, formQuestion, StatusNoMatch, RuleCoverage, -1, 1},
		{"half is enough", []candidate{c(0, 9, 0.5, 0.2)}, formQuestion, StatusFound, RuleFound, -1, 1},
		{"found with a clear lead", []candidate{c(0, 10, 1, 1), c(1, 5, 1, 1)}, formQuestion, StatusFound, RuleFound, -1, 0.5},
		{"a close doc named as strongly is a second meaning", []candidate{c(0, 10, 1, 1), c(1, 8, 1, 0.8)}, formQuestion, StatusAmbiguous, RuleSecondMeaning, 1, 0.2},
		{"a close doc that covers less is no second meaning", []candidate{c(0, 10, 1, 0.8), c(1, 9, 0.7, 0.9)}, formQuestion, StatusWeak, RuleContender, -1, 0.1},
		{"… nor a contender when it names no more than the top", []candidate{c(0, 10, 1, 1), c(1, 9, 0.7, 1)}, formQuestion, StatusFound, RuleFound, -1, 0.1},
		{"… which, covering as much, is a second meaning", []candidate{c(0, 10, 1, 1), c(1, 9, 0.8, 1)}, formQuestion, StatusAmbiguous, RuleSecondMeaning, 1, 0.1},
		{"… and for a bare topic, whatever it covers", []candidate{c(0, 10, 1, 1), c(1, 9, 0.7, 1)}, formName, StatusWeak, RuleContender, -1, 0.1},
		{"a close doc named less is no second meaning", []candidate{c(0, 10, 1, 1), c(1, 9, 1, 0.7)}, formQuestion, StatusFound, RuleFound, -1, 0.1},
		{"a close doc only mentioning the words is no second meaning", []candidate{c(0, 10, 1, 0.5), c(1, 9.9, 1, 0)}, formQuestion, StatusFound, RuleFound, -1, 0.01},
		{"a far doc is no second meaning for a question", []candidate{c(0, 10, 1, 1), c(1, 7, 1, 1)}, formQuestion, StatusFound, RuleFound, -1, 0.3},
		{"a far doc is one for a bare topic", []candidate{c(0, 10, 1, 1), c(1, 2, 1, 1)}, formTopic, StatusAmbiguous, RuleSecondMeaning, 1, 0.8},
		{"the first second meaning is the rival", []candidate{c(0, 10, 1, 1), c(1, 9, 0.5, 0), c(2, 8.5, 1, 1)}, formQuestion, StatusAmbiguous, RuleSecondMeaning, 2, 0.1},
		{"docs whose headings share a minor word of a question are no two meanings of it", []candidate{c(0, 10, 1, 0.2), c(1, 9.5, 1, 0.2)}, formQuestion, StatusFound, RuleFound, -1, 0.05},
		{"… but two naming half of MIN_COVERAGE of it are", []candidate{c(0, 10, 1, 0.25), c(1, 9.5, 1, 0.25)}, formQuestion, StatusAmbiguous, RuleSecondMeaning, 1, 0.05},
		{"ambiguity wins over not named", []candidate{c(0, 10, 1, 0.1), c(1, 9, 1, 0.1)}, formTopic, StatusAmbiguous, RuleSecondMeaning, 1, 0.1},
		{"a top naming nothing has no second meaning", []candidate{c(0, 10, 0.8, 0), c(1, 9.9, 0.8, 0.2)}, formQuestion, StatusNoMatch, RuleMentioned, -1, 0.01},
		{"a close doc naming another part of a question is no second meaning", []candidate{named(c(0, 10, 1, 0.7), 0b011), named(c(1, 9.5, 1, 0.75), 0b101)}, formQuestion, StatusFound, RuleFound, -1, 0.05},
		{"… nor a contender when it covers as much", []candidate{named(c(0, 10, 1, 0.7), 0b011), named(c(1, 9.5, 0.9, 0.75), 0b101)}, formQuestion, StatusFound, RuleFound, -1, 0.05},
		{"… but a contender when it covers less", []candidate{named(c(0, 10, 1, 0.7), 0b011), named(c(1, 9.5, 0.6, 0.75), 0b101)}, formQuestion, StatusWeak, RuleContender, -1, 0.05},
		{"a close doc naming the same words and more is a second meaning", []candidate{named(c(0, 10, 1, 0.7), 0b011), named(c(1, 9.5, 1, 0.9), 0b111)}, formQuestion, StatusAmbiguous, RuleSecondMeaning, 1, 0.05},
		{"any doc naming a bare topic is a reading of it", []candidate{named(c(0, 10, 1, 0.6), 0b01), named(c(1, 5, 1, 0.6), 0b10)}, formTopic, StatusAmbiguous, RuleSecondMeaning, 1, 0.5},
		{"body covers all, nothing named: weak", []candidate{c(0, 10, 1, 0)}, formQuestion, StatusWeak, RuleNotNamed, -1, 1},
		{"body covers all of a question, nothing named, no close doc: found", []candidate{c(0, 10, 1, 0), c(1, 7, 1, 0.5)}, formQuestion, StatusFound, RuleStandsOut, -1, 0.3},
		{"… weak with a close doc", []candidate{c(0, 10, 1, 0), c(1, 8, 1, 0)}, formQuestion, StatusWeak, RuleNotNamed, -1, 0.2},
		{"… weak for a bare topic, which must be named", []candidate{c(0, 10, 1, 0), c(1, 2, 1, 0)}, formTopic, StatusWeak, RuleNotNamed, -1, 0.8},
		{"… and no match when it covers part of it", []candidate{c(0, 10, 0.9, 0), c(1, 2, 0.5, 0)}, formQuestion, StatusNoMatch, RuleMentioned, -1, 0.8},
		{"a doc covering the question across its sections passes the coverage limit", []candidate{apart(c(0, 10, 0.6, 0.2), 0.3)}, formQuestion, StatusFound, RuleFound, -1, 1},
		{"… but stands out unnamed only with every word in one section", []candidate{apart(c(0, 10, 1, 0), 0.8), c(1, 7, 1, 0.5)}, formQuestion, StatusNoMatch, RuleMentioned, -1, 0.3},
		{"body covers part, nothing named: no match", []candidate{c(0, 10, 0.8, 0)}, formQuestion, StatusNoMatch, RuleMentioned, -1, 1},
		{"… found when the docs write all of it and the next doc ranks half as high", []candidate{written(c(0, 10, 0.6, 0)), c(1, 5, 0.6, 0.5)}, formQuestion, StatusFound, RuleFarAhead, -1, 0.5},
		{"… or alone", []candidate{written(c(0, 10, 0.5, 0))}, formQuestion, StatusFound, RuleFarAhead, -1, 1},
		{"… not with the next doc closer", []candidate{written(c(0, 10, 0.6, 0)), c(1, 5.1, 0.6, 0.5)}, formQuestion, StatusNoMatch, RuleMentioned, -1, 0.49},
		{"… nor with less than MIN_COVERAGE in one unit", []candidate{written(apart(c(0, 10, 0.8, 0), 0.4)), c(1, 2, 0.5, 0)}, formQuestion, StatusNoMatch, RuleMentioned, -1, 0.8},
		{"… nor with a word the docs do not write", []candidate{c(0, 10, 0.6, 0), c(1, 2, 0.6, 0)}, formQuestion, StatusNoMatch, RuleMentioned, -1, 0.8},
		{"… nor for a bare topic", []candidate{written(c(0, 10, 0.6, 0)), c(1, 2, 0.6, 0)}, formTopic, StatusNoMatch, RuleMentioned, -1, 0.8},
		{"a doc whose text covers a bare topic within half the top's rank is a second meaning", []candidate{c(0, 10, 1, 1), c(1, 5, 1, 0)}, formTopic, StatusAmbiguous, RuleSecondMeaning, 1, 0.5},
		{"… not one naming part of it, which its naming weighs", []candidate{c(0, 10, 1, 1), c(1, 7, 1, 0.3)}, formTopic, StatusFound, RuleFound, -1, 0.3},
		{"… not one ranking below half", []candidate{c(0, 10, 1, 1), c(1, 4.9, 1, 0)}, formTopic, StatusFound, RuleFound, -1, 0.51},
		{"… nor one covering part of it", []candidate{c(0, 10, 1, 1), c(1, 8, 0.5, 0)}, formTopic, StatusFound, RuleFound, -1, 0.2},
		{"… nor one mentioning a name, which names one thing", []candidate{c(0, 10, 1, 1), c(1, 8, 1, 0)}, formName, StatusFound, RuleFound, -1, 0.2},
		{"… nor of a longer question", []candidate{c(0, 10, 1, 1), c(1, 7, 1, 0)}, formQuestion, StatusFound, RuleFound, -1, 0.3},
		{"a doc naming a name is a reading of it", []candidate{c(0, 10, 1, 1), c(1, 2, 1, 1)}, formName, StatusAmbiguous, RuleSecondMeaning, 1, 0.8},
		{"a bare topic must be named for most of its weight", []candidate{c(0, 10, 1, 0.1), c(1, 3, 1, 0)}, formTopic, StatusWeak, RuleNotNamed, -1, 0.7},
		{"… unless its top names part of it and the next doc ranks below a quarter of it", []candidate{c(0, 10, 1, 0.4), c(1, 2.5, 1, 0)}, formTopic, StatusFound, RuleTopicFarAhead, -1, 0.75},
		{"… or stands alone", []candidate{c(0, 10, 1, 0.1)}, formTopic, StatusFound, RuleTopicFarAhead, -1, 1},
		{"… not with the next doc above a quarter", []candidate{c(0, 10, 1, 0.4), c(1, 2.6, 1, 0)}, formTopic, StatusWeak, RuleNotNamed, -1, 0.74},
		{"… nor with its words in two units", []candidate{apart(c(0, 10, 1, 0.4), 0.8), c(1, 2, 1, 0)}, formTopic, StatusNoMatch, RuleMentioned, -1, 0.8},
		{"… nor naming none of it", []candidate{c(0, 10, 1, 0), c(1, 2, 1, 0)}, formTopic, StatusWeak, RuleNotNamed, -1, 0.8},
		{"a longer question needs only part named", []candidate{c(0, 10, 1, 0.1)}, formQuestion, StatusFound, RuleFound, -1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := decide(tt.ranked, tt.form, th)
			if d.status != tt.status || d.rule != tt.rule {
				t.Errorf("decide = %s (%s), want %s (%s)", d.status, d.rule, tt.status, tt.rule)
			}
			if d.rival != tt.rival {
				t.Errorf("rival = %d, want %d", d.rival, tt.rival)
			}
			if d.confidence < tt.wantConf-1e-9 || d.confidence > tt.wantConf+1e-9 {
				t.Errorf("confidence = %v, want %v", d.confidence, tt.wantConf)
			}
		})
	}
}

// Each limit moves the decision it is named for.
func TestDecideThresholdsAreConfigurable(t *testing.T) {
	ranked := []candidate{{doc: 0, rank: 10, coverage: 0.6, naming: 1}, {doc: 1, rank: 7, coverage: 0.6, naming: 1}}
	if d := decide(ranked, formQuestion, thresholds{minCoverage: 0.5, minMargin: 0.25}); d.status != StatusFound {
		t.Fatalf("defaults: %s (%s)", d.status, d.rule)
	}
	if d := decide(ranked, formQuestion, thresholds{minCoverage: 0.7, minMargin: 0.25}); d.rule != RuleCoverage {
		t.Errorf("MIN_COVERAGE 0.7: rule %s", d.rule)
	}
	if d := decide(ranked, formQuestion, thresholds{minCoverage: 0.5, minMargin: 0.35}); d.rule != RuleSecondMeaning {
		t.Errorf("MIN_MARGIN 0.35: rule %s", d.rule)
	}
}

// The measures are shares and ratios: scaling every rank, as a longer
// corpus or longer chunks would, changes no decision.
func TestDecideIsScaleFree(t *testing.T) {
	th := thresholds{minCoverage: 0.5, minMargin: 0.25}
	for _, ranked := range [][]candidate{
		{{doc: 0, rank: 10, coverage: 1, naming: 1}, {doc: 1, rank: 8, coverage: 1, naming: 1}},
		{{doc: 0, rank: 10, coverage: 1, naming: 1}, {doc: 1, rank: 6, coverage: 1, naming: 1}},
		{{doc: 0, rank: 10, coverage: 1, naming: 0}},
		{{doc: 0, rank: 10, coverage: 0.7, naming: 0.4}, {doc: 1, rank: 9, coverage: 0.4, naming: 0.4}},
	} {
		want := decide(ranked, formQuestion, th)
		for _, scale := range []float64{0.001, 0.3, 7, 1e6} {
			scaled := make([]candidate, len(ranked))
			for i, c := range ranked {
				c.rank *= scale
				scaled[i] = c
			}
			if got := decide(scaled, formQuestion, th); got.status != want.status || got.rule != want.rule || got.rival != want.rival || math.Abs(got.confidence-want.confidence) > 1e-9 {
				t.Errorf("ranks ×%v: %+v, unscaled %+v", scale, got, want)
			}
		}
	}
}

func TestNamedMore(t *testing.T) {
	th := thresholds{minCoverage: 0.5, minMargin: 0.2}
	c := func(doc int32, rank, coverage, naming float64) candidate {
		return candidate{doc: doc, rank: rank, coverage: coverage, together: coverage, naming: naming}
	}
	for _, tc := range []struct {
		name  string
		cands []candidate
		want  int
	}{
		{"a close doc naming five times as much", []candidate{c(0, 21.8, 1, 0.16), c(1, 21.7, 1, 0.84)}, 1},
		{"exactly twice as much", []candidate{c(0, 10, 1, 0.3), c(1, 9, 1, 0.6)}, 1},
		{"less than twice", []candidate{c(0, 10, 1, 0.31), c(1, 9, 1, 0.43)}, 0},
		{"beyond the margin", []candidate{c(0, 10, 1, 0.1), c(1, 7.9, 1, 0.9)}, 0},
		{"covering less", []candidate{c(0, 10, 1, 0.1), c(1, 9, 0.66, 0.33)}, 0},
		{"of two, the one naming most", []candidate{c(0, 10, 1, 0.1), c(1, 9.5, 1, 0.4), c(2, 9, 1, 0.6)}, 2},
		{"a top naming nothing: any name is more", []candidate{c(0, 10, 1, 0), c(1, 9, 1, 0.2)}, 1},
		{"nothing named by either", []candidate{c(0, 10, 1, 0), c(1, 9, 1, 0)}, 0},
		{"one candidate", []candidate{c(0, 10, 1, 0.2)}, 0},
	} {
		if got := namedMore(tc.cands, th, tc.cands[0].coverage); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

// A question the contender rule made weak is answered from the close doc
// naming it twice as strongly when it covers enough to be an answer.
func TestNamedMoreAfterContender(t *testing.T) {
	th := thresholds{minCoverage: 0.5, minMargin: 0.2}
	top := candidate{doc: 0, rank: 28.4, coverage: 1, together: 1, naming: 0.10, named: 1}
	other := candidate{doc: 1, rank: 25.6, coverage: 0.66, together: 0.66, naming: 0.33, named: 2}
	cands := []candidate{top, other}
	if d := decide(cands, formQuestion, th); d.status != StatusWeak || d.rule != RuleContender {
		t.Fatalf("decide: %s (%s), want weak by the contender rule", d.status, d.rule)
	}
	if got := namedMore(cands, th, th.minCoverage); got != 1 {
		t.Errorf("namedMore = %d, want the contender", got)
	}
	other.coverage = 0.45
	if got := namedMore([]candidate{top, other}, th, th.minCoverage); got != 0 {
		t.Errorf("a contender covering too little: namedMore = %d, want 0", got)
	}
}

// A rare string the docs do not write weighs half an unknown word: "for
// my emjoi" is likelier a slip than what the question is about, and the
// question is answered from its other words. A common word the docs do not
// write ("gmail"), or a name ("Jira"), weighs whole: the question is about
// something they do not cover.
func TestRareStringWeighsHalf(t *testing.T) {
	e := newTestEngine(t, nil)
	for _, c := range []struct {
		query string
		want  Status
	}{
		{"create a workspace for my emjoi", StatusFound},
		{"create a workspace for my bandwith", StatusFound},
		{"create a workspace for my gmail", StatusNoMatch},
		{"create a workspace for Jira", StatusNoMatch},
	} {
		if r := e.Ask(Query{Text: c.query}); r.Status != c.want {
			t.Errorf("%q: %s (%s), want %s", c.query, r.Status, r.Rule, c.want)
		}
	}
}

// TestFarAheadAnswersAQuestionInTheAskersWords: a question telling a
// situation ("the confirmation email never arrived") is answered from the
// one page whose text covers it though its headings say it otherwise,
// when the docs write all its words; a name that page does not write
// ("Outlook") is another product's problem.
func TestFarAheadAnswersAQuestionInTheAskersWords(t *testing.T) {
	e := engineWith(t,
		retrievaltest.Doc("account/sign-up", "Creating your account", nil, "Sign up with your work address.",
			retrievaltest.Section{Heading: "Verify your address", Body: "After you sign up we send a confirmation email to the address you gave. If it has not arrived within ten minutes, look in your spam folder, then ask for a new one from the sign-in page."}),
		retrievaltest.Doc("integrations/calendar", "Calendar sync", nil, "Connect a calendar.",
			retrievaltest.Section{Heading: "Supported calendars", Body: "Sync works with Google Calendar and Outlook."}),
		retrievaltest.Doc("workspace/trash", "Trash", nil, "Deleted items wait in the trash.",
			retrievaltest.Section{Heading: "Emptying the trash", Body: "Items emptied from the trash are never restored."}))
	q := "the confirmation email never arrived"
	if res := checkFoundFrom(t, e, q, "account/sign-up"); res.Rule != RuleFarAhead {
		t.Errorf("%q: rule %q, want %q", q, res.Rule, RuleFarAhead)
	}
	q = "the confirmation email never arrived in Outlook"
	if res := e.Ask(Query{Text: q}); res.Status == StatusFound {
		t.Errorf("%q: found from %v (%s), want no answer: the page does not write Outlook", q, docsOf(res), res.Rule)
	}
	// A short question is held to every word: one no page writes may be
	// what it is about. A longer one tells circumstances, where such a
	// word is the asker's.
	q = "the confirmation email never arrived by fax"
	if res := e.Ask(Query{Text: q}); res.Status == StatusFound {
		t.Errorf("%q: found from %v (%s), want no answer: no page writes fax", q, docsOf(res), res.Rule)
	}
	q = "she signed up this morning on her tablet and the confirmation email never arrived"
	if res := checkFoundFrom(t, e, q, "account/sign-up"); res.Rule != RuleFarAhead {
		t.Errorf("%q: rule %q, want %q", q, res.Rule, RuleFarAhead)
	}
}

// TestOthersThingIsNoAnswer: "my gmail password" is the asker's mail's
// password, which a page on resetting the product's password does not
// reset; "my password" is the product's. A longer question telling
// circumstances ("our corporate proxy …"), a word the docs write and a
// number before the noun keep their answer.
func TestOthersThingIsNoAnswer(t *testing.T) {
	password := makeDoc("account/password", "Reset your password", nil, "Forgot it? Reset it from the sign-in page.",
		section{"Reset a password", "Click Forgot password, then follow the link we email you. Works for work accounts too."})
	proxy := makeDoc("network/proxy", "Proxy settings", nil, "Route traffic through a proxy.",
		section{"Proxy authentication", "Set the proxy address and its user name and password under Settings, Network."})
	e := engineWith(t, password, proxy)
	for _, q := range []string{"how do I reset my gmail password", "reset our netflix password"} {
		if res := e.Ask(Query{Text: q}); res.Status != StatusNoMatch || res.Rule != RuleOthersThing {
			t.Errorf("%q: %s (%s), want %s (%s)", q, res.Status, res.Rule, StatusNoMatch, RuleOthersThing)
		}
	}
	for q, slug := range map[string]string{
		"how do I reset my password":      "account/password",
		"how do I reset my work password": "account/password",
		"how do I reset my 2 passwords":   "account/password",
		"our squid proxy wants authentication for all traffic where do I set the proxy user name": "network/proxy",
	} {
		checkFoundFrom(t, e, q, slug)
	}
}
