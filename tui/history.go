package tui

// history recalls earlier questions with ↑/↓, like a shell. Recall only
// starts from an empty input and goes on while the input still shows the
// recalled question; once the user edits it, the arrows move the cursor.
type history struct {
	entries []string
	pos     int // len(entries) when not recalling
}

// maxHistory bounds the questions kept for one session.
const maxHistory = 500

func (h *history) add(q string) {
	if n := len(h.entries); n == 0 || h.entries[n-1] != q {
		h.entries = append(h.entries, q)
		if len(h.entries) > maxHistory {
			h.entries = h.entries[len(h.entries)-maxHistory:]
		}
	}
	h.pos = len(h.entries)
}

// recalling reports whether input is empty or is the entry being recalled.
func (h *history) recalling(input string) bool {
	if input == "" {
		return true
	}
	return h.pos < len(h.entries) && h.entries[h.pos] == input
}

// prev returns the question before the one shown.
func (h *history) prev(input string) (string, bool) {
	if !h.recalling(input) {
		return "", false
	}
	if input == "" {
		h.pos = len(h.entries) // a fresh recall starts from the newest
	}
	if h.pos == 0 {
		return "", false
	}
	h.pos--
	return h.entries[h.pos], true
}

// next returns the question after the one shown, or "" past the newest.
func (h *history) next(input string) (string, bool) {
	if input == "" || !h.recalling(input) {
		return "", false
	}
	h.pos++
	if h.pos == len(h.entries) {
		return "", true
	}
	return h.entries[h.pos], true
}
