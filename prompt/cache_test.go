package prompt

import (
	"reflect"
	"testing"

	"github.com/docent-sh/docent/tokens"
)

func TestCountCacheGivesTheSamePrompt(t *testing.T) {
	in := demoInput()
	cache := NewCountCache(64)
	want := Builder{}.Build(in)
	for turn := range 2 { // a cold then a warm cache
		got := Builder{Cache: cache}.Build(in)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("turn %d: cached build differs:\n%+v\nwant\n%+v", turn, got.Report, want.Report)
		}
	}
	if cache.Len() == 0 {
		t.Error("nothing was cached")
	}
}

func TestCountCacheKeysByEncodingAndStaysBounded(t *testing.T) {
	o200k, err := tokens.ForEncoding("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	cl100k := tokens.Default()
	cache := NewCountCache(3)
	text := "Ünïcödé 日本語のテキスト 👍👍👍"
	if a, b := cache.Count(cl100k, text), cache.Count(o200k, text); a != cl100k.Count(text) || b != o200k.Count(text) || a == b {
		t.Errorf("counts %d (cl100k) and %d (o200k): the cache mixed encodings up", a, b)
	}
	for _, s := range []string{"a", "b c", "d e f", "g h i j"} {
		if got := cache.Count(cl100k, s); got != cl100k.Count(s) {
			t.Errorf("%q: %d", s, got)
		}
	}
	if cache.Len() != 3 {
		t.Errorf("cache holds %d counts, limit 3", cache.Len())
	}
	var none *CountCache
	if got := none.Count(cl100k, "a b"); got != 2 {
		t.Errorf("nil cache counted %d", got)
	}
}
