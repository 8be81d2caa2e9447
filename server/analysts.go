package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// Analysts identify themselves with a token the operator issues
// (AddAnalyst) and sends as "Authorization: Bearer TOKEN"; the database
// keeps only the token's sha256, so a copy of the database does not give
// the tokens away. A decision records the analyst's name as its requester.

// ErrAnalyst reports an unknown analyst or a name in use.
var ErrAnalyst = errors.New("server: analyst")

// analystTokenPrefix marks analysts' tokens (so that one pasted where the
// operator's token is wanted is recognised in a message).
const analystTokenPrefix = "sdca_"

// Analyst is an analyst as the operator sees it (never the token).
type Analyst struct {
	Name      string `json:"name"`
	CreatedAt string `json:"created_at"`
	RevokedAt string `json:"revoked_at,omitempty"`
}

// reservedName reports the built-in requester names, in any case: an
// analyst (or a proxy's user) called "anonymous" or "operator" could not
// be told from them in the decisions.
func reservedName(name string) bool {
	return strings.EqualFold(name, KindAnonymous) || strings.EqualFold(name, KindOperator)
}

// CheckAnalystName accepts 1-64 letters, digits, '-', '_', '.' and '@',
// except the built-in names "anonymous" and "operator" (in any case).
func CheckAnalystName(name string) error {
	if name == "" || len(name) > 64 {
		return fmt.Errorf("%w: name %q: want 1-64 characters", ErrAnalyst, name)
	}
	if reservedName(name) {
		return fmt.Errorf("%w: name %q is reserved (the service's own names are anonymous and operator)", ErrAnalyst, name)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.@", r)) {
			return fmt.Errorf("%w: name %q: only letters, digits, '-', '_', '.' and '@'", ErrAnalyst, name)
		}
	}
	return nil
}

func tokenHash(tok string) string {
	sum := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(sum[:])
}

// AddAnalyst issues a token to a new analyst and returns it: it is shown
// this once and stored only as its sha256. A name in use (revoked or
// not) is refused.
func (s *Store) AddAnalyst(ctx context.Context, name string) (string, error) {
	if err := CheckAnalystName(name); err != nil {
		return "", err
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	tok := analystTokenPrefix + base64.RawURLEncoding.EncodeToString(b[:])
	_, err := s.db.ExecContext(ctx, `INSERT INTO analysts (name, token_sha256, created_at) VALUES (?, ?, ?)`, name, tokenHash(tok), now())
	if err != nil {
		if strings.Contains(err.Error(), "UNIQUE") {
			return "", fmt.Errorf("%w: %q exists (revoke it and choose another name to issue a new token)", ErrAnalyst, name)
		}
		return "", err
	}
	return tok, nil
}

// RevokeAnalyst makes an analyst's token stop working; the decisions it
// made keep the name.
func (s *Store) RevokeAnalyst(ctx context.Context, name string) error {
	res, err := s.db.ExecContext(ctx, `UPDATE analysts SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL`, now(), name)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: no active analyst %q", ErrAnalyst, name)
	}
	return nil
}

// Analysts lists the analysts by name.
func (s *Store) Analysts(ctx context.Context) ([]Analyst, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, created_at, COALESCE(revoked_at, '') FROM analysts ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Analyst{}
	for rows.Next() {
		var a Analyst
		if err := rows.Scan(&a.Name, &a.CreatedAt, &a.RevokedAt); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// analystByToken returns the name of the active analyst holding tok
// ("" and no error when none does).
func (s *Store) analystByToken(ctx context.Context, tok string) (string, error) {
	var name string
	err := s.db.QueryRowContext(ctx, `SELECT name FROM analysts WHERE token_sha256 = ? AND revoked_at IS NULL`, tokenHash(tok)).Scan(&name)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return name, err
}
