package prompt

import (
	"reflect"
	"strings"
	"testing"
)

func texts(lines []StateLine) []string {
	var out []string
	for _, l := range lines {
		out = append(out, l.Text)
	}
	return out
}

func TestParseAppStateJSON(t *testing.T) {
	tests := []struct {
		name        string
		data        string
		wantUI      []string
		wantWidgets []string
	}{
		{
			name: "page first, nested fields flattened, widgets array",
			data: `{
				"user": {"plan": "pro", "roles": ["admin", "billing"], "trial": false},
				"page": "settings",
				"errors": [{"code": 500}],
				"banner": null,
				"widgets": [
					{"name": "Recent", "state": "collapsed", "items": [1,2,3,4,5,6,7,8,9,10,11,12]},
					{"title": "Notes", "pinned": true, "visible": false, "filters": ["open", "mine"]},
					{"status": "loading", "errors": 2, "size": {"w": 3, "h": 2}}
				]
			}`,
			wantUI: []string{"page: settings", "user.plan: pro", "user.roles: admin, billing", "user.trial: false", "errors[0].code: 500"},
			wantWidgets: []string{
				"widget Recent: collapsed, 12 items",
				"widget Notes: pinned, not visible, filters: [open, mine]",
				"widget 3: loading, 2 errors, size: {w 3, h 2}",
			},
		},
		{
			name:        "widgets keyed by name, nested under the page",
			data:        `{"page": {"name": "dashboard", "widgets": {"Recent": {"state": "expanded"}, "Clock": "hidden"}}}`,
			wantUI:      []string{"page.name: dashboard"},
			wantWidgets: []string{"widget Recent: expanded", "widget Clock: hidden"},
		},
		{
			name:   "control characters and tags in values are cleaned",
			data:   `{"page": "set\u001b[31mtings\u0007", "note\nkey": "a\nb"}`,
			wantUI: []string{"page: settings", "note key: a b"},
		},
		{
			name:   "empty object and empty array",
			data:   `{"filters": {}, "tabs": []}`,
			wantUI: []string{"filters: (empty)", "tabs: (none)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := ParseAppState("ctx.json", []byte(tt.data))
			if err != nil {
				t.Fatal(err)
			}
			if st.Format != "json" || st.Name != "ctx.json" {
				t.Errorf("format %q name %q", st.Format, st.Name)
			}
			if got := texts(st.UI); !reflect.DeepEqual(got, tt.wantUI) {
				t.Errorf("UI lines:\n got %q\nwant %q", got, tt.wantUI)
			}
			if got := texts(st.Widgets); !reflect.DeepEqual(got, tt.wantWidgets) {
				t.Errorf("widget lines:\n got %q\nwant %q", got, tt.wantWidgets)
			}
		})
	}
}

func TestParseAppStateText(t *testing.T) {
	st, err := ParseAppState("ctx.txt", []byte("On the Settings page.\r\n\r\n  Recent widget is collapsed \x1b[1m(12 items)\x1b[0m\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []StateLine{
		{Label: "line 1", Text: "On the Settings page."},
		{Label: "line 3", Text: "Recent widget is collapsed (12 items)"},
	}
	if st.Format != "text" || !reflect.DeepEqual(st.UI, want) || len(st.Widgets) != 0 {
		t.Errorf("got %+v", st)
	}
}

func TestParseAppStateErrors(t *testing.T) {
	tests := []struct {
		name string
		data string
		want []string // substrings of the error
	}{
		{"missing value", "{\n  \"page\": \"settings\",\n  \"tab\": }\n", []string{"app state bad.json", "line 3, column 10", "offset 33"}},
		{"truncated", `{"page": "settings",`, []string{"app state bad.json", "line 1, column 21", "end of JSON"}},
		{"trailing data", `{"page": "a"} extra`, []string{"app state bad.json", "line 1, column 15", "after top-level value"}},
		{"unicode before the error", "{\"pägé\": tru}", []string{"line 1, column 13"}},
		{"array", `[{"page": "a"}]`, []string{"app state bad.json", "must be an object", "array"}},
		{"empty", "  \n\t", []string{"app state bad.json", "empty"}},
		{"too large", strings.Repeat("x", MaxAppStateBytes+1), []string{"app state bad.json", "limit"}},
		{"too deep", strings.Repeat(`{"a":`, maxJSONDepth+2) + "1" + strings.Repeat("}", maxJSONDepth+2), []string{"app state bad.json", "nested deeper"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseAppState("bad.json", []byte(tt.data))
			if err == nil {
				t.Fatal("no error")
			}
			for _, want := range tt.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
		})
	}
}
