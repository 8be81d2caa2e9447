package roles

import (
	"fmt"
	"strings"
)

// Role is what a column is for.
type Role int

const (
	Unclassified    Role = iota // named by no list: not published
	Identifier                  // directly identifying: removed
	QuasiIdentifier             // protected: generalized or microaggregated
	Sensitive                   // published unchanged
	Insensitive                 // published unchanged
)

var roleNames = [...]string{"unclassified", "identifier", "quasi-identifier", "sensitive", "insensitive"}

// String names the role.
func (r Role) String() string {
	if r < 0 || int(r) >= len(roleNames) {
		return fmt.Sprintf("Role(%d)", int(r))
	}
	return roleNames[r]
}

// Published reports whether a column of the role is published (protected
// or unchanged).
func (r Role) Published() bool {
	return r == QuasiIdentifier || r == Sensitive || r == Insensitive
}

// Exact reports whether a column of the role is published unchanged.
func (r Role) Exact() bool { return r == Sensitive || r == Insensitive }

// List is one role's columns, as the user gave them.
type List struct {
	Role    Role
	Label   string   // names the list in errors, e.g. "--sensitive"; "" = the role's name
	Columns []string // column names (trimmed of spaces)
}

func (l *List) label() string {
	if l.Label != "" {
		return l.Label
	}
	return l.Role.String()
}

// Assignment is the role of every column of a header.
type Assignment struct {
	Header []string // column names, in input order
	Roles  []Role   // Roles[j] is the role of column Header[j]
}

// New assigns the roles of lists to the columns of header. Columns in no
// list are Unclassified. Errors: a list naming a column that the header
// lacks (the message lists the columns), an empty name, a name twice in
// one list, a column in two lists (naming both), and a list whose Role is
// Unclassified or unknown. Every message names the list by its Label.
func New(header []string, lists ...List) (*Assignment, error) {
	index := make(map[string]int, len(header))
	for j, h := range header {
		index[h] = j
	}
	a := &Assignment{Header: header, Roles: make([]Role, len(header))}
	from := make([]string, len(header)) // the label of the list that set the role
	for x := range lists {
		l := &lists[x]
		if l.Role <= Unclassified || int(l.Role) >= len(roleNames) {
			return nil, fmt.Errorf("roles: %s: %v is not a role to assign", l.label(), l.Role)
		}
		for _, name := range l.Columns {
			name = strings.TrimSpace(name)
			j, ok := index[name]
			switch {
			case name == "":
				return nil, fmt.Errorf("roles: %s: empty column name", l.label())
			case !ok:
				return nil, fmt.Errorf("roles: %s: unknown column %q (columns: %s)", l.label(), name, strings.Join(header, ", "))
			case from[j] == l.label() && a.Roles[j] == l.Role:
				return nil, fmt.Errorf("roles: %s: column %q named twice", l.label(), name)
			case a.Roles[j] != Unclassified:
				return nil, fmt.Errorf("roles: column %q is in %s (%v) and in %s (%v): give it one role", name, from[j], a.Roles[j], l.label(), l.Role)
			}
			a.Roles[j], from[j] = l.Role, l.label()
		}
	}
	return a, nil
}

// Index returns the column index of name, or -1.
func (a *Assignment) Index(name string) int {
	for j, h := range a.Header {
		if h == name {
			return j
		}
	}
	return -1
}

// Columns returns the indices of the columns of role r, in input order.
func (a *Assignment) Columns(r Role) []int {
	return a.filter(func(x Role) bool { return x == r })
}

// Published returns the indices of the published columns
// (quasi-identifiers, sensitive and insensitive), in input order.
func (a *Assignment) Published() []int { return a.filter(Role.Published) }

// Exact returns the indices of the columns published unchanged (sensitive
// and insensitive), in input order.
func (a *Assignment) Exact() []int { return a.filter(Role.Exact) }

// Dropped returns the indices of the columns not published (identifiers
// and unclassified columns), in input order.
func (a *Assignment) Dropped() []int {
	return a.filter(func(r Role) bool { return !r.Published() })
}

// Names returns the names of the columns at the indices cols.
func (a *Assignment) Names(cols []int) []string {
	out := make([]string, len(cols))
	for x, j := range cols {
		out[x] = a.Header[j]
	}
	return out
}

func (a *Assignment) filter(keep func(Role) bool) []int {
	out := []int{}
	for j, r := range a.Roles {
		if keep(r) {
			out = append(out, j)
		}
	}
	return out
}

// CheckKeep checks a list of columns to publish despite leak findings
// (label names the list in errors): each must be a column published
// unchanged (sensitive or insensitive), named once.
func (a *Assignment) CheckKeep(label string, keep []string) error {
	seen := map[string]bool{}
	for _, name := range keep {
		name = strings.TrimSpace(name)
		j := a.Index(name)
		switch {
		case name == "":
			return fmt.Errorf("roles: %s: empty column name", label)
		case j < 0:
			return fmt.Errorf("roles: %s: unknown column %q (columns: %s)", label, name, strings.Join(a.Header, ", "))
		case !a.Roles[j].Exact():
			return fmt.Errorf("roles: %s: column %q is %v, not a column published unchanged (only sensitive and insensitive columns are checked for leaks)", label, name, a.Roles[j])
		case seen[name]:
			return fmt.Errorf("roles: %s: column %q named twice", label, name)
		}
		seen[name] = true
	}
	return nil
}

// Unnamed returns the columns of header that none of lists names (names
// compared after trimming spaces), in header order: the columns that a
// command takes as its quasi-identifiers when the user names only the
// other roles.
func Unnamed(header []string, lists ...[]string) []string {
	named := map[string]bool{}
	for _, l := range lists {
		for _, c := range l {
			named[strings.TrimSpace(c)] = true
		}
	}
	var out []string
	for _, h := range header {
		if !named[h] {
			out = append(out, h)
		}
	}
	return out
}
