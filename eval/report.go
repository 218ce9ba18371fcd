package eval

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/textsafe"
)

// gotStatuses are the confusion matrix's columns: every status the engine
// can decide.
var gotStatuses = []string{
	string(retrieval.StatusFound), string(retrieval.StatusWeak), string(retrieval.StatusAmbiguous),
	string(retrieval.StatusNoMatch), string(retrieval.StatusMulti),
}

// WriteText prints the report for a person: the totals, the confusion
// matrix (expected status by row, decided status by column) and every
// failing case. Text from the cases file is sanitized: it reaches a
// terminal.
func (r DecisionReport) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "cases %d, passed %d, accuracy %.1f%%, wrong confident answers %d\n\n",
		r.Cases, r.Passed, 100*r.Accuracy, r.WrongConfident)

	rows, cols := slices.Clone(expectable), slices.Clone(gotStatuses)
	for key := range r.Confusion {
		exp, got, _ := strings.Cut(key, "/")
		if !slices.Contains(rows, exp) {
			rows = append(rows, exp)
		}
		if !slices.Contains(cols, got) {
			cols = append(cols, got)
		}
	}
	fmt.Fprintln(w, "expected (rows) by decided (columns):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\t%s\t\n", strings.Join(cols, "\t"))
	for _, exp := range rows {
		counts := make([]string, len(cols))
		total := 0
		for i, got := range cols {
			n := r.Confusion[exp+"/"+got]
			counts[i] = fmt.Sprint(n)
			total += n
		}
		if total > 0 {
			fmt.Fprintf(tw, "%s\t%s\t\n", exp, strings.Join(counts, "\t"))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	if len(r.Failures) == 0 {
		_, err := fmt.Fprintln(w, "\nno failing cases")
		return err
	}
	fmt.Fprintf(w, "\nfailing cases (%d):\n", len(r.Failures))
	for _, f := range r.Failures {
		fmt.Fprintf(w, "  line %d  %q: %s\n      got %s %s\n", f.Line, textsafe.Line(asked(f.Query, f.Doc, f.After)), textsafe.Line(f.Why),
			f.GotStatus, textsafe.Line("["+strings.Join(f.GotSlugs, ", ")+"]"))
	}
	return nil
}
