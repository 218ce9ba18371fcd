package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/docent-sh/docent/llm"
)

// modelsOutput is what `docent models --json` prints.
type modelsOutput struct {
	LLM    llm.Selection `json:"llm"` // the provider asked, without its key
	Models []string      `json:"models"`
}

func newModelsCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "models [--json]",
		Short: "List the models the configured provider offers",
		Long: "models asks the provider that --provider, --base-url and the environment select for its\n" +
			"models (OpenAI and compatible servers: GET /v1/models; Anthropic: GET /v1/models; Ollama:\n" +
			"GET /api/tags) and prints their names, one a line. Any of them can be given to --model.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			sel, err := llm.Resolve(e.cfg.llmConfig(), e.getenv)
			if err != nil && !errors.Is(err, llm.ErrMissingKey) {
				return usageErrorf("%v", err)
			}
			// A missing key is ListModels' error to word: it names the variable.
			models, err := llm.ListModels(cmd.Context(), sel)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return writeJSON(out, modelsOutput{LLM: sel, Models: nonNil(models)})
			}
			for _, m := range models {
				fmt.Fprintln(out, m)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object with the provider and its models")
	return cmd
}
