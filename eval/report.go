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

// WriteText prints the report for a person: the totals, ranking quality,
// per-status precision and recall, the confusion matrix (expected status by
// row, decided status by column) and every failing case; with explain, each
// failure also shows the rule that decided and the top docs with the
// measures the policy read. Text from the cases file and the docs is
// sanitized: it reaches a terminal.
func (r DecisionReport) WriteText(w io.Writer, explain bool) error {
	fmt.Fprintf(w, "cases %d, passed %d, accuracy %.1f%%, wrong confident answers %d\n",
		r.Cases, r.Passed, 100*r.Accuracy, r.WrongConfident)
	if r.Ranked > 0 {
		fmt.Fprintf(w, "ranking over %d found questions: hit@1 %.1f%%, MRR %.3f\n", r.Ranked, 100*r.HitAt1, r.MRR)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "status\texpected\tdecided\tcorrect\tprecision\trecall\t")
	for _, s := range r.Statuses {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\t\n", s.Status, s.Expected, s.Decided, s.Correct,
			percentOf(s.Precision, s.Decided), percentOf(s.Recall, s.Expected))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)

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
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
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
		if explain {
			fmt.Fprintf(w, "      rule %s\n", orNone(textsafe.Line(f.Rule)))
			for i, c := range f.Candidates {
				fmt.Fprintf(w, "      %d. %s %s\n", i+1, textsafe.Line(c.DocSlug), candidateMeasures(c))
			}
		}
	}
	return nil
}

// candidateMeasures prints what the policy read of one candidate doc.
func candidateMeasures(c retrieval.Candidate) string {
	return fmt.Sprintf("rank %.2f, coverage %.2f, together %.2f, naming %.2f (%s)", c.Rank, c.Coverage, c.Together, c.Naming, textsafe.Line(c.ChunkID))
}

// percentOf prints a share, or "-" when nothing was counted.
func percentOf(share float64, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*share)
}
