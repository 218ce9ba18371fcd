package ingest

import "strings"

// Helpers that keep the text scanners linear: markup written by hand is
// full of openers that never close ("{{<" without ">}}", a lone "`"), and
// searching the rest of the text again from each of them is quadratic.

// finder answers "where is the next pat at or after i" over one string.
// Each pattern remembers its last answer, so scanning the string from left
// to right costs one pass per pattern however often it is asked.
type finder struct {
	s     string
	cache map[string][2]int // pattern → {searched from, found at or -1}
}

func newFinder(s string) *finder { return &finder{s: s, cache: map[string][2]int{}} }

func (f *finder) next(pat string, i int) int {
	if c, ok := f.cache[pat]; ok && i >= c[0] && (c[1] < 0 || i <= c[1]) {
		return c[1] // nothing between the last search's start and its answer
	}
	j := strings.Index(f.s[min(i, len(f.s)):], pat)
	if j >= 0 {
		j += i
	}
	f.cache[pat] = [2]int{i, j}
	return j
}

// lineEnd is the index of the newline ending the line holding i, or len.
func (f *finder) lineEnd(i int) int {
	if j := f.next("\n", i); j >= 0 {
		return j
	}
	return len(f.s)
}

// paragraphEnd is where the blank line after i starts, or len: markup
// may wrap, but never across a blank line.
func (f *finder) paragraphEnd(i int) int {
	if j := f.next("\n\n", i); j >= 0 {
		return j
	}
	return len(f.s)
}

// within returns the next pat in [i, limit), or -1.
func (f *finder) within(pat string, i, limit int) int {
	if j := f.next(pat, i); j >= 0 && j+len(pat) <= limit {
		return j
	}
	return -1
}

// codeSpans finds where inline code spans end. A span opens with a run of
// backticks and closes with the next run of the same length; the runs are
// indexed once, so finding every span is linear.
type codeSpans struct {
	starts, lens, match []int // match: index of the closing run, or -1
	cur                 int
}

func newCodeSpans(s string) *codeSpans {
	c := &codeSpans{}
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '`')
		if j < 0 {
			break
		}
		i += j
		n := 0
		for i+n < len(s) && s[i+n] == '`' {
			n++
		}
		c.starts = append(c.starts, i)
		c.lens = append(c.lens, n)
		i += n
	}
	c.match = make([]int, len(c.starts))
	nextOfLen := map[int]int{}
	for k := len(c.starts) - 1; k >= 0; k-- {
		m, ok := nextOfLen[c.lens[k]]
		if !ok {
			m = -1
		}
		c.match[k] = m
		nextOfLen[c.lens[k]] = k
	}
	return c
}

// end returns the end of the code span opening at i, or the end of the
// backtick run at i when it opens none before limit (then it is literal
// text): a code span never crosses a blank line. Calls must come with
// non-decreasing i.
func (c *codeSpans) end(i, limit int) int {
	for c.cur < len(c.starts) && c.starts[c.cur] < i {
		c.cur++
	}
	if c.cur == len(c.starts) || c.starts[c.cur] != i {
		return i + 1 // inside a run split by an escape: one literal backtick
	}
	k := c.cur
	if m := c.match[k]; m >= 0 && c.starts[m]+c.lens[m] <= limit {
		return c.starts[m] + c.lens[m]
	}
	return c.starts[k] + c.lens[k]
}
