package assistant

import (
	"fmt"
	"slices"
	"strings"

	"github.com/docent-sh/docent/prompt"
)

// UnknownRoleError is a role name the session does not know.
type UnknownRoleError struct {
	Name  string
	Known []string
}

func (e *UnknownRoleError) Error() string {
	return fmt.Sprintf("unknown role %q: the roles are %s", e.Name, strings.Join(e.Known, ", "))
}

// roleSet is the roles a session can pick from, by name. A later role
// replaces an earlier one of the same name, so a configuration file's
// role overrides the built-in one.
func roleSet(roles []prompt.Role) map[string]prompt.Role {
	set := make(map[string]prompt.Role, len(roles))
	for _, r := range roles {
		set[r.Name] = r
	}
	return set
}

// Roles lists the names of the roles SetRole takes, sorted.
func (s *Session) Roles() []string {
	names := make([]string, 0, len(s.roles))
	for name := range s.roles {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// SetRole picks the role the following answers are written in; "" goes
// back to none. An unknown name is an *UnknownRoleError and changes
// nothing.
func (s *Session) SetRole(name string) error {
	var role prompt.Role
	if name != "" {
		r, ok := s.roles[name]
		if !ok {
			return &UnknownRoleError{Name: name, Known: s.Roles()}
		}
		role = r
	}
	s.mu.Lock()
	s.role = role
	s.mu.Unlock()
	return nil
}

// Role is the name of the role in use, "" for none.
func (s *Session) Role() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.role.Name
}
