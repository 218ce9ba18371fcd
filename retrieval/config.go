package retrieval

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
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
	// DefinitionalBias is added to the match score of concepts/* docs for
	// "what is X"-style questions without an action word.
	DefinitionalBias        float64
	DefinitionalBiasEnabled bool
	Synonyms                Synonyms
}

// DefaultConfig returns the product defaults: retrieval on, Phase 2, top 5,
// MIN_SCORE 3, MIN_CONF 0.3, MIN_GAP 2, MIN_MATCHED_TERMS 2, definitional
// bias +2, default synonyms.
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
		Synonyms:                DefaultSynonyms(),
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

// Environment variables WithEnv reads.
const (
	EnvEnabled          = "DOC_RETRIEVAL_ENABLED"
	EnvPhase            = "DOC_RETRIEVAL_PHASE"
	EnvTopK             = "DOC_RETRIEVAL_TOP_K"
	EnvMinScore         = "DOC_RETRIEVAL_MIN_SCORE"
	EnvMinConf          = "DOC_RETRIEVAL_MIN_CONF"
	EnvMinGap           = "DOC_RETRIEVAL_MIN_GAP"
	EnvMinMatchedTerms  = "DOC_RETRIEVAL_MIN_MATCHED_TERMS"
	EnvDefinitionalBias = "DOC_RETRIEVAL_DEFINITIONAL_BIAS" // a number; 0 or "off" disables
)

// WithEnv overrides c with the DOC_RETRIEVAL_* variables that lookup finds
// (pass os.LookupEnv). The package does no I/O itself, hence the function.
// An unparsable value is an error naming the variable.
func (c Config) WithEnv(lookup func(string) (string, bool)) (Config, error) {
	get := func(name string) (string, bool) {
		v, ok := lookup(name)
		v = strings.TrimSpace(v)
		return v, ok && v != ""
	}
	if v, ok := get(EnvEnabled); ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return c, fmt.Errorf("%s=%q: want true or false", EnvEnabled, v)
		}
		c.Enabled = b
	}
	ints := []struct {
		name string
		dst  *int
	}{{EnvPhase, &c.Phase}, {EnvTopK, &c.TopK}, {EnvMinMatchedTerms, &c.MinMatchedTerms}}
	for _, f := range ints {
		if v, ok := get(f.name); ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				return c, fmt.Errorf("%s=%q: want a whole number", f.name, v)
			}
			*f.dst = n
		}
	}
	floats := []struct {
		name string
		dst  *float64
	}{{EnvMinScore, &c.MinScore}, {EnvMinConf, &c.MinConf}, {EnvMinGap, &c.MinGap}}
	for _, f := range floats {
		if v, ok := get(f.name); ok {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return c, fmt.Errorf("%s=%q: want a number", f.name, v)
			}
			*f.dst = x
		}
	}
	if v, ok := get(EnvDefinitionalBias); ok {
		if strings.EqualFold(v, "off") || strings.EqualFold(v, "false") {
			c.DefinitionalBiasEnabled = false
		} else {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return c, fmt.Errorf("%s=%q: want a number or off", EnvDefinitionalBias, v)
			}
			c.DefinitionalBias = x
			c.DefinitionalBiasEnabled = x != 0
		}
	}
	if err := c.Validate(); err != nil {
		return c, err
	}
	return c, nil
}
