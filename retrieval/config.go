package retrieval

import (
	"errors"
	"fmt"
)

// Config tunes the engine. DefaultConfig holds the product's defaults.
type Config struct {
	Enabled         bool    // false: every question gets the generic reply
	Phase           int     // 1 scores whole docs, 2 (default) scores chunks
	TopK            int     // results per turn
	MinScore        float64 // below it the top is weak
	MinConf         float64 // below it the top is ambiguous
	MinGap          float64 // a rival doc closer than this makes the top ambiguous
	MinMatchedTerms int     // fewer matched terms is weak
	// DefinitionalBias is added to the match score of the bundle's concept
	// docs for "what is X"-style questions without an action word.
	DefinitionalBias        float64
	DefinitionalBiasEnabled bool
}

// DefaultConfig returns the product defaults: retrieval on, Phase 2, top 5,
// MIN_SCORE 3, MIN_CONF 0.3, MIN_GAP 2, MIN_MATCHED_TERMS 2, definitional
// bias +2. Synonyms, the glossary and concept docs come with the knowledge
// base (knowledge.Bundle), never from here.
func DefaultConfig() Config {
	return Config{
		Enabled:                 true,
		Phase:                   2,
		TopK:                    5,
		MinScore:                3,
		MinConf:                 0.3,
		MinGap:                  2,
		MinMatchedTerms:         2,
		DefinitionalBias:        2,
		DefinitionalBiasEnabled: true,
	}
}

// Validate reports the first setting out of range, by name.
func (c Config) Validate() error {
	var errs []error
	if c.Phase != 1 && c.Phase != 2 {
		errs = append(errs, fmt.Errorf("phase %d: want 1 or 2", c.Phase))
	}
	if c.TopK < 1 || c.TopK > 100 {
		errs = append(errs, fmt.Errorf("top K %d: want 1 to 100", c.TopK))
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"MIN_SCORE", c.MinScore}, {"MIN_GAP", c.MinGap}, {"definitional bias", c.DefinitionalBias}} {
		if f.v < 0 || f.v != f.v {
			errs = append(errs, fmt.Errorf("%s %v: want a number >= 0", f.name, f.v))
		}
	}
	if !(c.MinConf >= 0 && c.MinConf <= 1) {
		errs = append(errs, fmt.Errorf("MIN_CONF %v: want 0 to 1", c.MinConf))
	}
	if c.MinMatchedTerms < 0 {
		errs = append(errs, fmt.Errorf("MIN_MATCHED_TERMS %d: want >= 0", c.MinMatchedTerms))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("retrieval config: %w", err)
	}
	return nil
}

// The environment variables that set the engine's configuration; the CLI
// binds them to its flags (the engine itself reads no environment).
const (
	EnvEnabled          = "DOC_RETRIEVAL_ENABLED"
	EnvPhase            = "DOC_RETRIEVAL_PHASE"
	EnvTopK             = "DOC_RETRIEVAL_TOP_K"
	EnvMinScore         = "DOC_RETRIEVAL_MIN_SCORE"
	EnvMinConf          = "DOC_RETRIEVAL_MIN_CONF"
	EnvMinGap           = "DOC_RETRIEVAL_MIN_GAP"
	EnvMinMatchedTerms  = "DOC_RETRIEVAL_MIN_MATCHED_TERMS"
	EnvDefinitionalBias = "DOC_RETRIEVAL_DEFINITIONAL_BIAS" // a number; 0 disables
)
