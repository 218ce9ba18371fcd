package retrieval

import (
	"errors"
	"fmt"
)

// Config tunes the engine. DefaultConfig holds the product's defaults.
//
// The decision policy's limits are shares and ratios, never scores: they
// mean the same on a corpus of ten short pages and of ten thousand long
// ones.
type Config struct {
	Enabled bool // false: every question gets the generic reply
	Phase   int  // 1 scores whole docs, 2 (default) scores chunks
	TopK    int  // results per turn
	// MinCoverage is the share of the question's informative weight (its
	// words weighted by idf) the top doc must cover; below it the question
	// is no match.
	MinCoverage float64
	// MinMargin is how close, relatively, another doc must come to the top
	// doc, in rank and in how strongly its title or headings carry the
	// question's words, to be a second meaning worth asking about. A
	// fifth: on the four doc sets eval measures, a rival 20–25% behind
	// the top was another audience's page on the same words (an API
	// reference beside the guide), not another meaning, and no labelled
	// ambiguity needs it (they are bare topics, which ignore rank).
	MinMargin float64
	// DefinitionalBias: the rank of the doc about the asked-for thing is
	// multiplied by 1 + DefinitionalBias: the doc titled with the
	// question's words, and for "what is X"-style questions without an
	// action word also the section headed X and a declared concept doc
	// naming X; 0 turns it off.
	DefinitionalBias float64
	// Alpha weighs the two signals of a hybrid turn, one whose query
	// carries a vector of the model the chunks were embedded with:
	// fused = Alpha·vector + (1 − Alpha)·lexical, each normalized to
	// [0, 1] (see fuse). 0 leaves the vector side out entirely; a turn
	// without a query vector is lexical whatever Alpha says.
	Alpha float64
}

// DefaultConfig returns the product defaults, the one place they are
// written: the CLI's flags take theirs from here. Synonyms, the glossary
// and concept docs come with the knowledge base (knowledge.Bundle), never
// from here.
func DefaultConfig() Config {
	return Config{
		Enabled:          true,
		Phase:            2,
		TopK:             5,
		MinCoverage:      0.5,
		MinMargin:        0.2,
		DefinitionalBias: 0.5,
		// Even: neither signal is trusted over the other until an
		// evaluation with a real embedding model says otherwise.
		Alpha: 0.5,
	}
}

// Validate reports every setting out of range, by the name the
// configuration file and the flags give it.
func (c Config) Validate() error {
	var errs []error
	if c.Phase != 1 && c.Phase != 2 {
		errs = append(errs, fmt.Errorf("phase %d: want 1 or 2", c.Phase))
	}
	if c.TopK < 1 || c.TopK > 100 {
		errs = append(errs, fmt.Errorf("top-k %d: want 1 to 100", c.TopK))
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"min-coverage", c.MinCoverage}, {"min-margin", c.MinMargin}, {"alpha", c.Alpha}} {
		if !(f.v >= 0 && f.v <= 1) {
			errs = append(errs, fmt.Errorf("%s %v: want a share from 0 to 1", f.name, f.v))
		}
	}
	if !(c.DefinitionalBias >= 0) {
		errs = append(errs, fmt.Errorf("definitional-bias %v: want a number >= 0", c.DefinitionalBias))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("retrieval config: %w", err)
	}
	return nil
}
