package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sdcopt/sdcopt/model"
)

// HistoryVersion is the format version of History.
const HistoryVersion = 1

// History is the public record of one table's releases, in order.
type History struct {
	Version int `json:"version"`
	// Vars are the table's variables and levels: a history belongs to one
	// table layout.
	Vars     []HistoryVar `json:"vars"`
	Releases []Release    `json:"releases"`
}

// HistoryVar is a variable with its levels.
type HistoryVar struct {
	Name   string   `json:"name"`
	Levels []string `json:"levels"`
}

// Release is one released margin.
type Release struct {
	// Margin names the variables, in table order.
	Margin []string `json:"margin"`
	// Counts are the released values in the margin's cell order
	// (row-major over Margin, the first variable slowest).
	Counts []int64 `json:"counts"`
	// Simulated: the values come from a simulated table, not the
	// confidential one.
	Simulated     bool      `json:"simulated"`
	RequestID     string    `json:"request_id,omitempty"`
	Requester     string    `json:"requester,omitempty"`
	Time          time.Time `json:"time,omitzero"`
	PolicyVersion string    `json:"policy_version,omitempty"`
}

// ErrHistory reports a history that does not fit its table or itself.
var ErrHistory = errors.New("audit: bad history")

// NewHistory returns the empty history of a table.
func NewHistory(t *model.Table) *History {
	h := &History{Version: HistoryVersion, Releases: []Release{}}
	for _, v := range t.Vars {
		h.Vars = append(h.Vars, HistoryVar{Name: v.Name, Levels: slices.Clone(v.Levels)})
	}
	return h
}

// ReadHistory decodes a history (JSON, one object; unknown fields are an
// error).
func ReadHistory(r io.Reader) (*History, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var h History
	if err := dec.Decode(&h); err != nil {
		return nil, fmt.Errorf("%w: not a history (JSON): %v", ErrHistory, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: more than one JSON value", ErrHistory)
	}
	if h.Version != HistoryVersion {
		return nil, fmt.Errorf("%w: version %d, want %d", ErrHistory, h.Version, HistoryVersion)
	}
	if h.Releases == nil {
		h.Releases = []Release{}
	}
	return &h, nil
}

// WriteHistory encodes h as indented JSON.
func WriteHistory(w io.Writer, h *History) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(h); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// Check verifies that h belongs to t: the same variables and levels, every
// release naming known variables in table order with one non-negative
// count per margin cell, every release marked true equal to t's margin,
// and the releases agreeing with each other (a margin released twice with
// the same values; any two releases equal on the variables they share, so
// a simulated release cannot contradict a true one). Whether an integer
// table has every released margin is checked by Decide when it computes
// bounds.
func (h *History) Check(t *model.Table) error {
	return h.check(t, nil)
}

// check is Check; verified, when not nil, holds the true releases already
// compared with t (by margin and counts) and gets the ones compared now,
// so that an auditor collapses each true release once, not at every
// decision.
func (h *History) check(t *model.Table, verified *releaseCache) error {
	if len(h.Vars) != len(t.Vars) {
		return fmt.Errorf("%w: %d variables, the table has %d", ErrHistory, len(h.Vars), len(t.Vars))
	}
	for i, v := range t.Vars {
		if h.Vars[i].Name != v.Name || !slices.Equal(h.Vars[i].Levels, v.Levels) {
			return fmt.Errorf("%w: variable %d is %s with levels %v, the table's is %s with levels %v",
				ErrHistory, i+1, h.Vars[i].Name, h.Vars[i].Levels, v.Name, v.Levels)
		}
	}
	for i := range h.Releases {
		r := &h.Releases[i]
		sub, err := subsetOf(t.Vars, r.Margin)
		if err != nil {
			return fmt.Errorf("%w: release %d: %v", ErrHistory, i+1, err)
		}
		n := model.NumCells(model.SubDims(model.Dims(t.Vars), sub))
		if len(r.Counts) != n {
			return fmt.Errorf("%w: release %d (%s): %d counts, the margin has %d cells", ErrHistory, i+1, marginName(r.Margin), len(r.Counts), n)
		}
		for j, c := range r.Counts {
			if c < 0 {
				return fmt.Errorf("%w: release %d (%s): cell %d has the negative count %d", ErrHistory, i+1, marginName(r.Margin), j, c)
			}
		}
		if !r.Simulated && !verified.has(r) {
			m, err := t.Collapse(sub)
			if err != nil {
				return err
			}
			for j := range m.Counts {
				if m.Counts[j] != r.Counts[j] {
					return fmt.Errorf("%w: release %d (%s) is marked true but differs from the table at margin cell %d (%d, the table has %d)",
						ErrHistory, i+1, marginName(r.Margin), j, r.Counts[j], m.Counts[j])
				}
			}
			verified.add(r)
		}
	}
	return h.checkAgree(t)
}

// releaseCache remembers true releases that agree with an auditor's
// table, keyed by the margin and the SHA-256 of the counts (a release
// with other counts is compared again). The zero value is ready; a nil
// cache remembers nothing.
type releaseCache struct {
	mu sync.Mutex
	ok map[[32]byte]bool
}

func releaseKey(r *Release) [32]byte {
	hs := sha256.New()
	hs.Write([]byte(strings.Join(r.Margin, "\x00")))
	hs.Write([]byte{0xff})
	var b [8]byte
	for _, c := range r.Counts {
		binary.LittleEndian.PutUint64(b[:], uint64(c))
		hs.Write(b[:])
	}
	var k [32]byte
	copy(k[:], hs.Sum(nil))
	return k
}

func (c *releaseCache) has(r *Release) bool {
	if c == nil {
		return false
	}
	k := releaseKey(r)
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ok[k]
}

func (c *releaseCache) add(r *Release) {
	if c == nil {
		return
	}
	k := releaseKey(r)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ok == nil {
		c.ok = map[[32]byte]bool{}
	}
	c.ok[k] = true
}

// checkAgree checks that the releases agree pairwise on shared variables
// (model.MarginSet.Check over one margin per variable set).
func (h *History) checkAgree(t *model.Table) error {
	ms := &model.MarginSet{Vars: t.Vars}
	first := map[string]int{} // margin -> index of its first release
	for i, r := range h.Releases {
		key := strings.Join(r.Margin, ":")
		if k, ok := first[key]; ok {
			if !slices.Equal(h.Releases[k].Counts, r.Counts) {
				return fmt.Errorf("%w: release %d %s repeats release %d with other values", ErrHistory, i+1, marginName(r.Margin), k+1)
			}
			continue
		}
		first[key] = i
		sub, _ := subsetOf(t.Vars, r.Margin) // checked above
		ms.Margins = append(ms.Margins, &model.Marginal{Vars: sub, Counts: r.Counts})
	}
	if len(ms.Margins) < 2 {
		return nil
	}
	if err := ms.Check(); err != nil {
		return fmt.Errorf("%w: the released margins contradict each other: %v", ErrHistory, err)
	}
	return nil
}

// Append records a released decision (a denial adds nothing).
func (h *History) Append(d *Decision) {
	if d.Outcome == Denied {
		return
	}
	h.Releases = append(h.Releases, Release{Margin: slices.Clone(d.Margin), Counts: slices.Clone(d.Counts), Simulated: d.Simulated,
		RequestID: d.RequestID, Requester: d.Requester, Time: d.Time, PolicyVersion: d.PolicyVersion})
}

// subsetOf maps variable names to increasing table positions.
func subsetOf(vars []model.Variable, names []string) ([]int, error) {
	if len(names) == 0 {
		return nil, errors.New("a margin names no variable")
	}
	var sub []int
	for _, n := range names {
		j := slices.IndexFunc(vars, func(v model.Variable) bool { return v.Name == n })
		if j < 0 {
			return nil, fmt.Errorf("unknown variable %q", n)
		}
		if slices.Contains(sub, j) {
			return nil, fmt.Errorf("variable %q appears twice", n)
		}
		sub = append(sub, j)
	}
	if !slices.IsSorted(sub) {
		return nil, fmt.Errorf("margin %s: variables must be in table order", marginName(names))
	}
	return sub, nil
}

func marginName(names []string) string { return "[" + strings.Join(names, ":") + "]" }
