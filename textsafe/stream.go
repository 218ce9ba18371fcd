package textsafe

import (
	"strings"
	"unicode/utf8"
)

// Stream cleans text that arrives in pieces, such as a streamed model
// answer. The pieces joined give exactly what String gives for the whole
// text, however it is split: an escape sequence cut between two pieces is
// still removed whole. Only a UTF-8 character cut short is held back until
// the next piece; everything else is returned at once, because a
// sequence's parameters and payload are dropped whether or not its end
// ever comes. The zero value is ready to use.
type Stream struct {
	p parser
}

// Write returns the part of chunk that is safe to show now.
func (st *Stream) Write(chunk string) string {
	// Most chunks are clean text arriving in plain text: pass them on
	// without copying, unless a CR just ended the last one and this one
	// starts with the LF of that CRLF.
	p := &st.p
	if p.state == ground && p.pending == "" && isClean(chunk) && !(p.afterCR && strings.HasPrefix(chunk, "\n")) {
		p.afterCR = p.afterCR && chunk == ""
		return chunk
	}
	var b strings.Builder
	b.Grow(len(chunk))
	st.p.run(&b, chunk, true)
	return b.String()
}

// Flush ends the text: it returns what was held back and makes the Stream
// ready for a new text.
func (st *Stream) Flush() string {
	var b strings.Builder
	st.p.run(&b, "", false)
	st.p = parser{}
	return b.String()
}

// parseState says what the bytes read so far have opened.
type parseState uint8

const (
	ground     parseState = iota // text
	escape                       // after ESC
	escInter                     // ESC and intermediate bytes, e.g. "ESC ("
	csi                          // control sequence parameters
	ctrlStr                      // OSC, DCS, SOS, PM or APC payload
	ctrlStrEsc                   // ESC inside a payload: ST or a new escape
	ctrlStrC2                    // first byte of a UTF-8 C1 ST inside a payload
)

const (
	esc = 0x1b
	bel = 0x07

	// C1 controls that open or end a sequence, as runes (their UTF-8 form
	// is two bytes, 0xC2 then the value).
	c1DCS = 0x90
	c1SOS = 0x98
	c1CSI = 0x9b
	c1ST  = 0x9c
	c1OSC = 0x9d
	c1PM  = 0x9e
	c1APC = 0x9f
)

// parser is a byte-at-a-time terminal sequence parser: all it carries
// from one piece of text to the next is its state, whether the last byte
// was a CR, and a UTF-8 character not yet complete.
type parser struct {
	state   parseState
	afterCR bool
	pending string
}

// run feeds s to the parser and writes the text to keep to b. With more,
// a UTF-8 character cut short at the end of s is held for the next call;
// without, each of its bytes is invalid and becomes U+FFFD.
func (p *parser) run(b *strings.Builder, s string, more bool) {
	if p.pending != "" {
		s = p.pending + s
		p.pending = ""
	}
	for i := 0; i < len(s); {
		c := s[i]
		afterCR := p.afterCR
		p.afterCR = false
		if p.state != ground {
			if p.sequenceByte(c) {
				i++
			}
			continue
		}
		if c == '\n' && afterCR {
			i++ // the CR of a CRLF already wrote the line break
			continue
		}
		if j := keptRun(s, i); j > i {
			b.WriteString(s[i:j])
			i = j
			continue
		}
		if c >= utf8.RuneSelf {
			if more && !utf8.FullRuneInString(s[i:]) {
				p.pending = s[i:]
				return
			}
			i += p.groundRune(b, s[i:])
			continue
		}
		switch c {
		case esc:
			p.state = escape
		case '\r':
			b.WriteByte('\n')
			p.afterCR = true
		}
		// Any other C0 control or DEL is dropped.
		i++
	}
}

// sequenceByte reads byte c inside an escape sequence and reports whether
// c belongs to it. When it does not, the sequence has ended (or was never
// one) and c is read again, as text or as a new escape.
func (p *parser) sequenceByte(c byte) bool {
	switch p.state {
	case escape:
		switch c {
		case '[':
			p.state = csi
			return true
		case ']', 'P', 'X', '^', '_':
			p.state = ctrlStr
			return true
		}
		// Not an escape at all: only the ESC is dropped.
		return p.escapeByte(c)
	case escInter:
		return p.escapeByte(c)
	case csi:
		switch {
		case c >= 0x20 && c <= 0x3f: // parameters and intermediates
			return true
		case c >= 0x40 && c <= 0x7e: // final byte
			p.state = ground
			return true
		}
		// A control character aborts the sequence, as terminals do.
		p.state = ground
		return false
	case ctrlStr:
		// An unterminated payload runs to the end of the text: showing
		// half a hyperlink or a stray clipboard payload is worse than
		// dropping it.
		switch c {
		case bel:
			p.state = ground
		case esc:
			p.state = ctrlStrEsc
		case 0xc2:
			p.state = ctrlStrC2
		}
		return true
	case ctrlStrEsc:
		if c == '\\' {
			p.state = ground
			return true
		}
		// A new escape cancels the payload; c belongs to it.
		p.state = escape
		return false
	case ctrlStrC2:
		// A C1 character's second UTF-8 byte is its own value.
		if c == c1ST {
			p.state = ground
			return true
		}
		p.state = ctrlStr
		return false
	}
	return false
}

// escapeByte reads c after ESC and any intermediate bytes (0x20–0x2F):
// more intermediates, or the final byte that ends the escape.
func (p *parser) escapeByte(c byte) bool {
	switch {
	case c >= 0x20 && c <= 0x2f:
		p.state = escInter
		return true
	case c >= 0x30 && c <= 0x7e:
		p.state = ground
		return true
	}
	p.state = ground
	return false
}

// groundRune handles the non-ASCII character at the start of s, one that
// keptRun stopped at, and returns its length.
func (p *parser) groundRune(b *strings.Builder, s string) int {
	r, size := utf8.DecodeRuneInString(s)
	switch {
	case r == utf8.RuneError && size == 1:
		b.WriteRune(utf8.RuneError)
	case r == c1CSI:
		p.state = csi
	case r == c1OSC || r == c1DCS || r == c1SOS || r == c1PM || r == c1APC:
		p.state = ctrlStr
	}
	// Other C1 controls and the bidi controls are dropped.
	return size
}

// keptRun returns the end of the run of text starting at i that is kept
// as it is, so plain text is copied in one piece.
func keptRun(s string, i int) int {
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if isDroppedASCII(c) {
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || isDropped(r) {
			break
		}
		i += size
	}
	return i
}
