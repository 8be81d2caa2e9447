package audit

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/sdcopt/sdcopt/internal/numtext"
)

// Policy says which bounds are too narrow to release. Every non-zero cell
// of the confidential table must keep, given everything released,
//
//   - upper - lower >= 1 (exact, always on: no non-zero cell determined);
//   - upper - lower >= MinWidth when its count is in 1..Small-1;
//   - upper - lower >= ceil(MinRelWidth * count) when its count is at least
//     Small (MinRelWidth 0 turns this rule off).
//
// Zero cells are not protected: a released zero is not a disclosure about
// a respondent. AllowSimulate lets a denied request in simulate mode be
// answered from a simulated table. A simulated answer is not data: it is
// the margin of a table drawn to fit the public releases, and it becomes
// part of the public view, so every later answer that it implies is
// simulated too (for a simulated whole table, every later answer). It
// depends only on the releases, the request and the seed; with nothing
// released (not even the total public) nothing is simulated and the
// request is denied. It is off unless the operator turns it on.
type Policy struct {
	Small         int64   `json:"small"`
	MinWidth      int64   `json:"min_width"`
	MinRelWidth   float64 `json:"min_rel_width"`
	AllowSimulate bool    `json:"allow_simulate"`
}

// ErrPolicy reports a policy that cannot be applied.
var ErrPolicy = errors.New("audit: bad policy")

// DefaultPolicy is small = 3, min_width = 3, min_rel_width = 0 (off),
// simulation not allowed.
func DefaultPolicy() Policy {
	return Policy{Small: 3, MinWidth: 3}
}

// PolicyUpdate changes some parameters of a policy: a nil field keeps the
// current value, so leaving a field out never weakens a policy.
type PolicyUpdate struct {
	Small         *int64   `json:"small"`
	MinWidth      *int64   `json:"min_width"`
	MinRelWidth   *float64 `json:"min_rel_width"`
	AllowSimulate *bool    `json:"allow_simulate"`
}

// Apply returns p with the fields u sets replaced, validated.
func (u PolicyUpdate) Apply(p Policy) (Policy, error) {
	if u.Small != nil {
		p.Small = *u.Small
	}
	if u.MinWidth != nil {
		p.MinWidth = *u.MinWidth
	}
	if u.MinRelWidth != nil {
		p.MinRelWidth = *u.MinRelWidth
	}
	if u.AllowSimulate != nil {
		p.AllowSimulate = *u.AllowSimulate
	}
	return p, p.Validate()
}

// Validate checks the parameters: small and min_width at least 0,
// min_rel_width in [0, 1] and finite.
func (p Policy) Validate() error {
	switch {
	case p.Small < 0:
		return fmt.Errorf("%w: small = %d is negative", ErrPolicy, p.Small)
	case p.MinWidth < 0:
		return fmt.Errorf("%w: min_width = %d is negative", ErrPolicy, p.MinWidth)
	case math.IsNaN(p.MinRelWidth) || p.MinRelWidth < 0 || p.MinRelWidth > 1:
		return fmt.Errorf("%w: min_rel_width = %g is not in [0, 1]", ErrPolicy, p.MinRelWidth)
	}
	return nil
}

// Version identifies the policy in every decision: the rule set's version
// and its parameters, so that a decision can be re-checked against the
// policy it was made under.
func (p Policy) Version() string {
	return fmt.Sprintf("v1:small=%d,min_width=%d,min_rel_width=%s,simulate=%t",
		p.Small, p.MinWidth, strconv.FormatFloat(p.MinRelWidth, 'g', -1, 64), p.AllowSimulate)
}

// ParsePolicy reads "small=3,min_width=3,min_rel_width=0.1,simulate=true"
// over the defaults; an empty spec is DefaultPolicy().
func ParsePolicy(spec string) (Policy, error) {
	p := DefaultPolicy()
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return p, nil
	}
	for _, kv := range strings.Split(spec, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return p, fmt.Errorf("%w: %q is not name=value", ErrPolicy, kv)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		var err error
		switch k {
		case "small":
			p.Small, err = strconv.ParseInt(v, 10, 64)
		case "min_width":
			p.MinWidth, err = strconv.ParseInt(v, 10, 64)
		case "min_rel_width":
			p.MinRelWidth, err = numtext.ParseFloat(v)
		case "simulate":
			if p.AllowSimulate, err = strconv.ParseBool(v); err != nil {
				return p, fmt.Errorf("%w: simulate: %q is not true or false", ErrPolicy, v)
			}
		default:
			return p, fmt.Errorf("%w: unknown parameter %q (want small, min_width, min_rel_width, simulate)", ErrPolicy, k)
		}
		if err != nil {
			kind := "an integer"
			if k == "min_rel_width" {
				kind = "a number"
			}
			return p, fmt.Errorf("%w: %s: %q is not %s", ErrPolicy, k, v, kind)
		}
	}
	return p, p.Validate()
}

// RequiredWidth is the least upper - lower the policy allows for a cell
// with this true count (0: no requirement).
func (p Policy) RequiredWidth(count int64) int64 {
	if count <= 0 {
		return 0
	}
	w := int64(1) // exact: never lower == upper
	if count < p.Small {
		w = max(w, p.MinWidth)
	} else if p.MinRelWidth > 0 {
		w = max(w, int64(math.Ceil(p.MinRelWidth*float64(count)-1e-12)))
	}
	return w
}
