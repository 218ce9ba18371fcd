package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/docent-sh/docent/apitoken"
	"github.com/docent-sh/docent/store/postgres"
	"github.com/docent-sh/docent/textsafe"
)

// apiTokensFile is the embedded store's API tokens, in docent's XDG data
// directory beside the notes: they are kept data, not rebuildable state.
const apiTokensFile = "api-tokens.json"

func newTokensCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tokens",
		Short: "Create, list and revoke the API tokens of docent serve",
		Long: "An API token lets a program call docent serve as one user of one workspace: every request\n" +
			"made with it reads that workspace's notes as that user. Only a SHA-256 of the token is stored\n" +
			"(in the database with --db, else in " + apiTokensFile + " in docent's data directory); create prints\n" +
			"the token once.",
	}
	cmd.AddCommand(newTokensCreateCmd(e), newTokensListCmd(e), newTokensRevokeCmd(e))
	return cmd
}

// tokenStore is where API tokens live: the database's api_tokens table,
// or the token file without one. close is never nil when err is nil.
func (e *env) openTokenStore(ctx context.Context) (apitoken.Store, func(), error) {
	if e.cfg.dbURL != "" {
		st, err := postgres.Open(ctx, e.cfg.dbURL, postgres.Options{
			Migrate: !e.cfg.noMigrate, CheckSchema: true, LockWait: e.cfg.lockWait,
		})
		if err != nil {
			return nil, nil, err
		}
		return st.APITokens(), st.Close, nil
	}
	return e.tokenFile(), func() {}, nil
}

func (e *env) tokenFile() *apitoken.FileStore {
	return apitoken.NewFileStore(filepath.Join(dataDir(e.getenv), apiTokensFile))
}

func newTokensCreateCmd(e *env) *cobra.Command {
	var name string
	cmd := &cobra.Command{
		Use:   "create --workspace W --user U [--name N]",
		Short: "Make a token acting as --user in --workspace and print it (once)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// A token's user is never a default: the OS user of whoever
			// runs this is rarely the one the token is for.
			if strings.TrimSpace(e.cfg.user) == "" {
				return usageErrorf("tokens create needs --user (or DOCENT_USER): the user the token acts as")
			}
			scope, err := e.scope()
			if err != nil {
				return err
			}
			if err := apitoken.ValidateName(name); err != nil {
				return usageErrorf("--name: %v", err)
			}
			ctx := cmd.Context()
			st, closeStore, err := e.openTokenStore(ctx)
			if err != nil {
				return err
			}
			defer closeStore()
			token, rec, err := apitoken.New(scope, name, time.Now())
			if err != nil {
				return err
			}
			if err := st.CreateToken(ctx, rec); err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), token)
			fmt.Fprintf(cmd.ErrOrStderr(), "docent: token %s acts as %s in %s; it is shown only now (docent tokens revoke %s ends it)\n",
				rec.ID, textsafe.Line(scope.User), textsafe.Line(scope.Workspace), rec.ID)
			e.log.Info("API token created", "token_id", rec.ID, "workspace", scope.Workspace, "user", scope.User)
			return nil
		},
	}
	cmd.Flags().StringVar(&name, "name", "", "a label for the token (what it is for), shown by tokens list")
	return cmd
}

// tokenListing is one token as tokens list --json prints it.
type tokenListing struct {
	ID        string     `json:"id"`
	Name      string     `json:"name"`
	Workspace string     `json:"workspace"`
	User      string     `json:"user"`
	CreatedAt time.Time  `json:"created_at"`
	RevokedAt *time.Time `json:"revoked_at,omitempty"`
}

func newTokensListCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--json]",
		Short: "One line per API token: id, workspace, user, name, created, revoked",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			st, closeStore, err := e.openTokenStore(ctx)
			if err != nil {
				return err
			}
			defer closeStore()
			list, err := st.ListTokens(ctx)
			if err != nil {
				return err
			}
			out := make([]tokenListing, len(list))
			for i, r := range list {
				out[i] = tokenListing{ID: r.ID, Name: r.Name, Workspace: r.Workspace, User: r.User, CreatedAt: r.CreatedAt, RevokedAt: r.RevokedAt}
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), out)
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tWORKSPACE\tUSER\tNAME\tCREATED\tREVOKED")
			for _, t := range out {
				revoked := "-"
				if t.RevokedAt != nil {
					revoked = t.RevokedAt.Local().Format(time.DateTime)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", t.ID, textsafe.Line(t.Workspace), textsafe.Line(t.User),
					textsafe.Line(t.Name), t.CreatedAt.Local().Format(time.DateTime), revoked)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	return cmd
}

func newTokensRevokeCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "revoke ID",
		Short: "Revoke an API token by its id (from tokens list); its requests fail from then on",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			st, closeStore, err := e.openTokenStore(ctx)
			if err != nil {
				return err
			}
			defer closeStore()
			if err := st.RevokeToken(ctx, args[0]); err != nil {
				if errors.Is(err, apitoken.ErrNotFound) {
					return fmt.Errorf("%w (docent tokens list shows the ids)", err)
				}
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "revoked %s\n", textsafe.Line(args[0]))
			e.log.Info("API token revoked", "token_id", args[0])
			return nil
		},
	}
}
