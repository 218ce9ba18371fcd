package quiz

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/docent-sh/docent/textsafe"
)

// WriteText prints the quiz for a person: each question, its options
// lettered, then the answer, why each other option is wrong, and the
// sources. Every string from the docs or a model passes textsafe again
// here, whatever made the quiz.
func WriteText(w io.Writer, q Quiz) error {
	var b strings.Builder
	for i, it := range q.Items {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%d. [%s] %s\n", i+1, it.Level, line(it.Question))
		switch it.Kind {
		case MultipleChoice:
			for k, o := range it.Options {
				fmt.Fprintf(&b, "   %c) %s\n", letter(k), line(o))
			}
			if it.Answer >= 0 && it.Answer < len(it.Options) {
				fmt.Fprintf(&b, "   Answer: %c) %s\n", letter(it.Answer), line(it.Options[it.Answer]))
			}
			for k, why := range it.WhyWrong {
				if k != it.Answer && why != "" {
					fmt.Fprintf(&b, "   Not %c: %s\n", letter(k), line(why))
				}
			}
		case ShortAnswer:
			fmt.Fprintf(&b, "   Answer: %s\n", line(it.SuggestedAnswer))
			if len(it.Keywords) > 0 {
				kw := make([]string, len(it.Keywords))
				for k, s := range it.Keywords {
					kw[k] = line(s)
				}
				fmt.Fprintf(&b, "   Look for: %s\n", strings.Join(kw, ", "))
			}
		}
		if it.Explanation != "" {
			fmt.Fprintf(&b, "   Why: %s\n", line(it.Explanation))
		}
		for _, s := range it.Sources {
			ref := line(s.ChunkID)
			if s.SourcePath != "" {
				ref = line(s.SourcePath) + " · " + ref
			}
			fmt.Fprintf(&b, "   Source: %s — %s\n", line(strings.ReplaceAll(s.HeaderPath, " > ", " › ")), ref)
		}
	}
	if len(q.Items) == 0 {
		b.WriteString("No questions: the docs chosen gave nothing to ask about.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteNotes prints the quiz's notes, one a line, for stderr.
func WriteNotes(w io.Writer, q Quiz) {
	for _, n := range q.Notes {
		fmt.Fprintf(w, "note: %s\n", line(n))
	}
}

// WriteJSON prints the quiz as one indented JSON object. Its fields are
// Quiz's, in that order, and lists are never null, so a script can rely
// on the shape.
func WriteJSON(w io.Writer, q Quiz) error {
	if q.Items == nil {
		q.Items = []Item{}
	}
	if q.Notes == nil {
		q.Notes = []string{}
	}
	for i := range q.Items {
		if q.Items[i].Citations == nil {
			q.Items[i].Citations = []string{}
		}
		if q.Items[i].Sources == nil {
			q.Items[i].Sources = []Source{}
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	// Header paths read "A > B": escaping ">" would only hinder a reader.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(q); err != nil {
		return fmt.Errorf("write quiz JSON: %w", err)
	}
	return nil
}

func letter(i int) rune { return rune('a' + i) }

func line(s string) string { return textsafe.Line(s) }
