package analysis

import (
	"slices"
	"strings"
	"testing"
	"unicode"
)

// identifiersByFields is AppendIdentifiers written the plain way: split
// into runs of letters, digits and separators, keep the runs joined well.
func identifiersByFields(s string) []string {
	var ids []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool {
		return !(r == '.' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r))
	}) {
		f = strings.Trim(f, "._")
		if !strings.ContainsAny(f, "._") || strings.Contains(f, "..") || strings.Contains(f, "__") ||
			strings.Contains(f, "._") || strings.Contains(f, "_.") {
			continue
		}
		// Parts of one character each make an abbreviation or a number.
		long := false
		for _, part := range strings.Split(strings.ReplaceAll(f, "_", "."), ".") {
			long = long || len([]rune(part)) > 1
		}
		if !long {
			continue
		}
		ids = append(ids, strings.ToLower(f))
		// and the versions a release writes: "1.26" for "1.26.x"
		parts := strings.Split(f, ".")
		for n := len(parts) - 1; n >= 2; n-- {
			v := strings.Join(parts[:n], ".")
			if strings.Trim(v, "0123456789.") == "" && strings.ContainsFunc(v, func(r rune) bool { return r >= '0' && r <= '9' }) {
				long := false
				for _, p := range parts[:n] {
					long = long || len(p) > 1
				}
				if long {
					ids = append(ids, v)
				}
			}
		}
	}
	return ids
}

func TestAppendIdentifiers(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"How do I set up server-side rendering in Next.js?", []string{"next.js"}},
		{"what does AUTHORIZED_FETCH do", []string{"authorized_fetch"}},
		{"paginate with max_id and since_id.", []string{"max_id", "since_id"}},
		{"edit mkdocs.yml. Then build", []string{"mkdocs.yml"}},
		{"put it on status.example.com", []string{"status.example.com"}},
		{"the end. Next sentence", nil},
		{"_private and trailing_ and a..b and a._b", nil},
		{"Größe_Datei", []string{"größe_datei"}},
		{"no identifier here", nil},
		{"e.g. this, i.e. that, in 2.1 or v2.1", []string{"v2.1"}},
		{"supports 1.26.x and 3.12.1.4", []string{"1.26.x", "1.26", "3.12.1.4", "3.12.1", "3.12"}},
	} {
		if got := AppendIdentifiers(nil, tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.text, got, tc.want)
		}
	}
}

// Every identifier is a lower-cased piece of the text, joined by '.' or
// '_' and never starting, ending or doubling a separator; the scan finds
// what splitting the text into runs finds.
func FuzzAppendIdentifiers(f *testing.F) {
	for _, s := range []string{"Next.js", "max_id, since_id", "a..b_c", "x._y", "é.ü", "éé.ü", "\xff.a", "e.g. 2.1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := AppendIdentifiers(nil, s)
		if want := identifiersByFields(s); !slices.Equal(got, want) {
			t.Fatalf("%q: %q, want %q", s, got, want)
		}
		for _, id := range got {
			if id != strings.ToLower(id) || !strings.ContainsAny(id, "._") ||
				strings.Trim(id, "._") != id || strings.Contains(id, "..") || strings.Contains(id, "__") ||
				strings.Contains(id, "._") || strings.Contains(id, "_.") {
				t.Fatalf("%q: bad identifier %q", s, id)
			}
			if !strings.Contains(strings.ToLower(s), id) {
				t.Fatalf("%q: %q is not in the text", s, id)
			}
		}
	})
}

func TestAppendCalls(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"resp.getheader() is deprecated", []string{".getheader("}},
		{"use `.formData()` or Response.json(x)", []string{".formdata(", ".json("}},
		{"call it. (later) and a.b (c)", nil},
		{"end.(", nil},
		{"", nil},
	} {
		if got := AppendCalls(nil, tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.text, got, tc.want)
		}
	}
}

// Every call is a dot, a lower-cased name, an opening parenthesis, as the
// text writes them.
func FuzzAppendCalls(f *testing.F) {
	for _, s := range []string{"resp.getheader()", ".formData()", "a.(", "é.ü(", "\xff.a(", "x._y(z)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range AppendCalls(nil, s) {
			if len(c) < 3 || c[0] != '.' || c[len(c)-1] != '(' || c != strings.ToLower(c) || !strings.Contains(strings.ToLower(s), c) {
				t.Fatalf("%q: bad call %q", s, c)
			}
		}
	})
}

func TestWritesName(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"PgBouncer", true},
		{"connect WordPress", true},
		{"iPhone", true},
		{"SSO", false}, // an acronym
		{"VAT rates", false},
		{"Password", false}, // a capital that starts a word
		{"pgbouncer", false},
		{"", false},
	} {
		if got := WritesName(tc.text); got != tc.want {
			t.Errorf("WritesName(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestAppendCapitalized(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"does it integrate with Jira", []string{"jira"}},
		{"Jira integration", nil},                                          // the sentence's first word
		{"hi. Jira? Slack and Teams: Zoom too", []string{"teams", "team"}}, // after . ? and : a sentence starts
		{"are you HIPAA compliant", []string{"hipaa"}},
		{"our Google Sheets export", []string{"google", "sheets", "sheet"}},
		{"the 'Starting new' line", []string{"starting"}},
		{"", nil},
	} {
		if got := AppendCapitalized(nil, tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("AppendCapitalized(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func FuzzAppendCapitalized(f *testing.F) {
	for _, s := range []string{"does it integrate with Jira", "hi. Jira? Slack works: Teams", "ÉCOLE école. Été", "\xff A\xffB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := AppendCapitalized(nil, s)
		// Every word it returns is a lower-cased token of s, or the
		// singular of one.
		tokens := Tokens(s)
		for _, w := range got {
			if !slices.Contains(tokens, w) && !slices.ContainsFunc(tokens, func(tk string) bool { return Singular(tk) == w }) {
				t.Fatalf("AppendCapitalized(%q) returned %q, no token of it", s, w)
			}
		}
		if strings.TrimSpace(s) != "" && len(strings.Fields(s)) == 1 && len(got) > 0 {
			t.Fatalf("AppendCapitalized(%q) = %q: a one-word text is its sentence's first word", s, got)
		}
	})
}

func TestAppendClasses(t *testing.T) {
	for s, want := range map[string][]string{
		"sqlite3.OperationalError: database is locked":                {"sqlite3.operationalerror"},
		"raised django.core.exceptions.SynchronousOnlyOperation, why": {"django.core.exceptions.synchronousonlyoperation"},
		"java.lang.NullPointerException and requests.Session":         {"java.lang.nullpointerexception"},
		"set up Next.js with mkdocs.yml":                              nil, // no class's name
		"sqlite3.operationalerror":                                    nil, // not spelled as a class
		"my_module.Operational_Error":                                 nil,
		"İİ x.HTTPError":                                              {"x.httperror"},
	} {
		if got := AppendClasses(nil, s); !slices.Equal(got, want) {
			t.Errorf("AppendClasses(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzAppendClasses(f *testing.F) {
	for _, s := range []string{"sqlite3.OperationalError", "İ.Ab x.HTTPError", "a.B", "Next.js", "\xff.Ab"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ids := AppendIdentifiers(nil, s)
		for _, c := range AppendClasses(nil, s) {
			if !slices.Contains(ids, c) || !strings.Contains(c, ".") {
				t.Fatalf("%q: class %q is not one of its dotted identifiers %q", s, c, ids)
			}
		}
	})
}
