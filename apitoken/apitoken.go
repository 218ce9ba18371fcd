// Package apitoken issues and checks the bearer tokens of `docent serve`.
// A token names who calls: the workspace and user every request of it
// acts as. Only the token's SHA-256 is stored, so a stolen token list
// lets nobody in; the token itself is shown once, when it is made.
// The embedded store keeps tokens in a file (FileStore); PostgreSQL in
// the api_tokens table (store/postgres); apitokentest holds both to one
// contract.
package apitoken

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/docent-sh/docent/knowledge"
)

// Prefix starts every token, so a leaked one is recognisable (secret
// scanners, the redactor) and a token is never mistaken for an id.
const Prefix = "dct_"

// Hash is the SHA-256 of a token: what is stored and looked up.
type Hash [sha256.Size]byte

// HashOf hashes a token as presented.
func HashOf(token string) Hash { return sha256.Sum256([]byte(token)) }

// Record is one issued token, without the token.
type Record struct {
	ID        string // short, public: what list shows and revoke takes
	Hash      Hash
	Name      string
	Workspace string
	User      string
	CreatedAt time.Time
	RevokedAt *time.Time
}

// Scope is who the token acts as.
func (r Record) Scope() knowledge.Scope { return knowledge.Scope{Workspace: r.Workspace, User: r.User} }

// Revoked reports whether the token was revoked.
func (r Record) Revoked() bool { return r.RevokedAt != nil }

// Errors of the stores.
var (
	ErrNotFound = errors.New("no such API token")
	ErrRevoked  = errors.New("API token revoked")
)

// Store keeps issued tokens. Lookup finds a token by its hash alone: the
// comparison of secrets is a hash-table or index lookup of a digest, so
// its timing says nothing about the token.
type Store interface {
	CreateToken(ctx context.Context, r Record) error
	// LookupToken returns the record of a hash, ErrNotFound when there is
	// none; a revoked token's record comes with ErrRevoked.
	LookupToken(ctx context.Context, h Hash) (Record, error)
	// ListTokens returns every token, revoked ones included, oldest first.
	ListTokens(ctx context.Context) ([]Record, error)
	// RevokeToken marks a token revoked; ErrNotFound for an unknown id.
	// Revoking a revoked token changes nothing.
	RevokeToken(ctx context.Context, id string) error
}

// tokenBytes is the token's entropy: 256 bits, out of reach of guessing.
const tokenBytes = 32

// New makes a token for scope and the record to store for it. The token
// is returned once; the record holds only its hash.
func New(scope knowledge.Scope, name string, now time.Time) (token string, r Record, err error) {
	if err := scope.Validate(); err != nil {
		return "", Record{}, fmt.Errorf("new API token: %w", err)
	}
	if err := ValidateName(name); err != nil {
		return "", Record{}, err
	}
	var secret [tokenBytes]byte
	var id [6]byte
	if _, err := rand.Read(secret[:]); err != nil {
		return "", Record{}, fmt.Errorf("new API token: read random bytes: %w", err)
	}
	if _, err := rand.Read(id[:]); err != nil {
		return "", Record{}, fmt.Errorf("new API token: read random bytes: %w", err)
	}
	token = Prefix + base64.RawURLEncoding.EncodeToString(secret[:])
	return token, Record{
		ID: hex.EncodeToString(id[:]), Hash: HashOf(token), Name: name,
		Workspace: scope.Workspace, User: scope.User, CreatedAt: now.UTC().Truncate(time.Microsecond),
	}, nil
}

// maxNameLen bounds a token's name: a label, not a document.
const maxNameLen = 100

// ValidateName refuses a name that is too long or holds control
// characters (it is printed by tokens list).
func ValidateName(name string) error {
	if len(name) > maxNameLen {
		return fmt.Errorf("API token name: longer than %d bytes", maxNameLen)
	}
	if strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return fmt.Errorf("API token name %q: holds control characters", name)
	}
	return nil
}

// Check finds who a presented token acts as: its record when it is known
// and not revoked. A malformed token is not looked up.
func Check(ctx context.Context, st Store, token string) (Record, error) {
	if !strings.HasPrefix(token, Prefix) || len(token) > maxTokenLen {
		return Record{}, ErrNotFound
	}
	r, err := st.LookupToken(ctx, HashOf(token))
	if err != nil {
		return Record{}, err
	}
	if r.Revoked() {
		return Record{}, ErrRevoked
	}
	return r, nil
}

// maxTokenLen is far above a real token's length (47): anything longer is
// not hashed at all.
const maxTokenLen = 128
