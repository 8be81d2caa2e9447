package roles

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Default thresholds of the leak check (see the package documentation for
// the measurements on UCI Adult that they were chosen from).
const (
	// DefaultMinGain: a column whose gain over chance in guessing a
	// quasi-identifier reaches this determines it (Goodman & Kruskal's λ,
	// singletons counted as errors). Adult: education → education-num
	// 1.00, relationship → marital-status 0.64; every other pair <= 0.32.
	DefaultMinGain = 0.5
	// DefaultMaxUnique: a column in which at least this share of the
	// records carries a value no other record has is nearly unique.
	// Adult: fnlwgt 0.479; every other column 0.0005 or less.
	DefaultMaxUnique = 0.2
	// DefaultMaxPinned: a column that pins a quasi-identifier exactly (see
	// Pins) for at least this share of the records more than chance
	// would (pinned − pinnedChance) reveals it. Adult: education pins
	// education-num for 0.674 of the records; fnlwgt pins sex for 0.116
	// (0.030 by chance) and age for 0.061 (0.005); every other pair at
	// most 0.0012 beyond chance.
	DefaultMaxPinned = 0.05
)

// Settings are the thresholds of Check; a zero field takes its default.
type Settings struct {
	MinGain   float64 // in (0, 1]; default DefaultMinGain
	MaxUnique float64 // in (0, 1]; default DefaultMaxUnique
	MaxPinned float64 // in (0, 1]; default DefaultMaxPinned
}

func (s *Settings) values() (gain, unique, pinned float64) {
	gain, unique, pinned = DefaultMinGain, DefaultMaxUnique, DefaultMaxPinned
	if s != nil && s.MinGain > 0 {
		gain = s.MinGain
	}
	if s != nil && s.MaxUnique > 0 {
		unique = s.MaxUnique
	}
	if s != nil && s.MaxPinned > 0 {
		pinned = s.MaxPinned
	}
	return gain, unique, pinned
}

// Kind is the kind of a leak.
type Kind int

const (
	Determines Kind = iota + 1 // the column determines a quasi-identifier, or nearly
	Unique                     // the column's values are nearly all unique
	Pins                       // the column gives a quasi-identifier's exact value for many records
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case Determines:
		return "determines"
	case Unique:
		return "unique"
	case Pins:
		return "pins"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Finding is a column published unchanged that would undo the protection,
// with the evidence.
type Finding struct {
	Column string // the column published unchanged
	Kind   Kind
	QI     string // Determines, Pins: the quasi-identifier it reveals

	// Determines: share(C→Q), the share of records whose quasi-identifier
	// value is the most frequent one among the records sharing their
	// (repeated) value of the column. Unique: the share of records whose
	// value no other record has. Pins: pinned(C→Q), the share of records
	// whose exact quasi-identifier value the column gives (PinnedN / N).
	Share float64
	// Determines, Pins: chance(Q), the share of the quasi-identifier's most
	// frequent value; Gain = (share(C→Q) − Chance) / (1 − Chance).
	Chance, Gain float64
	// Pinned: pinned(C→Q), and PinnedChance: its expected value were C
	// independent of Q (see Pins in the package documentation); set in
	// every Finding of kind Determines or Pins. Check reports Pins when
	// Pinned − PinnedChance reaches Settings.MaxPinned.
	Pinned, PinnedChance float64

	N         int // records
	Values    int // distinct values of the column
	Repeated  int // Determines: values occurring at least twice
	Pure      int // Determines: repeated values whose records all have one value of the quasi-identifier
	Singles   int // Unique: records whose value no other record has
	PinnedN   int // Determines, Pins: records counted by Pinned
	PinValues int // Determines, Pins: values of the column that pin the records counted by Pinned
}

// String gives the evidence in one sentence, e.g. "education determines
// education-num for 100.0% of records (16 repeated values, each mapping to
// one value; 32.6% by chance)".
func (f Finding) String() string {
	switch f.Kind {
	case Determines:
		verb := "determines"
		if f.Pure < f.Repeated {
			verb = "nearly determines"
		}
		mapping := "each mapping to one value"
		if f.Pure < f.Repeated {
			mapping = fmt.Sprintf("%d of them mapping to one value", f.Pure)
		}
		return fmt.Sprintf("%s %s %s for %.1f%% of records (%d repeated values, %s; %.1f%% by guessing its most frequent value; gain %.2f)",
			f.Column, verb, f.QI, 100*f.Share, f.Repeated, mapping, 100*f.Chance, f.Gain)
	case Pins:
		return fmt.Sprintf("%s pins %s exactly for %.1f%% of records (%d records; each of %d repeated values is held only by records of one value of %s, not its most frequent; %.1f%% by chance; gain %.2f)",
			f.Column, f.QI, 100*f.Pinned, f.PinnedN, f.PinValues, f.QI, 100*f.PinnedChance, f.Gain)
	case Unique:
		return fmt.Sprintf("%s is unique for %.1f%% of records (%d of %d records carry a value no other record has; %d distinct values)",
			f.Column, 100*f.Share, f.Singles, f.N, f.Values)
	}
	return f.Column + ": " + f.Kind.String()
}

// codes maps the cells of column j to dense codes in order of first
// appearance; it returns the codes and the count of every code.
func codes(n, j int, cell func(i, j int) string) (code []int32, count []int) {
	index := map[string]int32{}
	code = make([]int32, n)
	for i := 0; i < n; i++ {
		v := cell(i, j)
		c, ok := index[v]
		if !ok {
			c = int32(len(count))
			index[v] = c
			count = append(count, 0)
		}
		code[i] = c
		count[c]++
	}
	return code, count
}

// Measure computes the determination of quasi-identifier column q by
// column c over n records (cell(i, j) is record i's cell of column j): the
// Finding whether or not it passes a threshold, with Kind Determines.
func Measure(n int, cell func(i, j int) string, header []string, c, q int) Finding {
	cc, cn := codes(n, c, cell)
	qc, qn := codes(n, q, cell)
	return determination(n, cc, cn, qc, qn, header[c], header[q])
}

func determination(n int, cc []int32, cn []int, qc []int32, qn []int, cname, qname string) Finding {
	f := Finding{Column: cname, Kind: Determines, QI: qname, N: n, Values: len(cn)}
	if n == 0 {
		return f
	}
	pair := make(map[int64]int, len(cn))
	nq := int64(len(qn))
	for i := range cc {
		pair[int64(cc[i])*nq+int64(qc[i])]++
	}
	best := make([]int, len(cn))
	kinds := make([]int, len(cn)) // distinct Q values per C value
	for key, m := range pair {
		c := key / nq
		best[c] = max(best[c], m)
		kinds[c]++
	}
	mode := slices.Max(qn)
	only := make([]int32, len(cn)) // the Q value of a pure C value
	for i := range cc {
		only[cc[i]] = qc[i]
	}
	hit := 0
	sizes := map[int]int{} // records in repeated values of C, by the value's count
	for c, m := range cn {
		if m < 2 {
			continue
		}
		sizes[m] += m
		f.Repeated++
		hit += best[c]
		if kinds[c] == 1 {
			f.Pure++
			if qn[only[c]] < mode {
				f.PinnedN += m
				f.PinValues++
			}
		}
	}
	f.Share = float64(hit) / float64(n)
	f.Pinned = float64(f.PinnedN) / float64(n)
	// Were C independent of Q, the m records of a value of C would all
	// have value q with chance (n_q/n)^m.
	for m, records := range sizes {
		p := 0.0
		for _, k := range qn {
			if k < mode {
				p += math.Pow(float64(k)/float64(n), float64(m))
			}
		}
		f.PinnedChance += float64(records) * p / float64(n)
	}
	f.Chance = float64(mode) / float64(n)
	if f.Chance < 1 {
		f.Gain = (f.Share - f.Chance) / (1 - f.Chance)
	}
	return f
}

// Check runs the leak check over the columns of a published unchanged
// (sensitive and insensitive) against its quasi-identifiers, on n records
// whose cells cell(i, j) gives (j a column of a.Header). It returns the
// findings, column by column in input order: first the column's
// uniqueness, then the quasi-identifiers it determines or pins, in input
// order (a pair that passes both thresholds is reported once, as
// Determines). s nil takes the defaults.
func Check(a *Assignment, n int, cell func(i, j int) string, s *Settings) []Finding {
	minGain, maxUnique, maxPinned := s.values()
	qis := a.Columns(QuasiIdentifier)
	type coded struct {
		code  []int32
		count []int
	}
	qcodes := make([]coded, len(qis))
	for x, q := range qis {
		qcodes[x].code, qcodes[x].count = codes(n, q, cell)
	}
	var out []Finding
	for _, c := range a.Exact() {
		cc, cn := codes(n, c, cell)
		singles := 0
		for _, m := range cn {
			if m == 1 {
				singles++
			}
		}
		if n > 0 && float64(singles)/float64(n) >= maxUnique {
			out = append(out, Finding{Column: a.Header[c], Kind: Unique, Share: float64(singles) / float64(n), N: n, Values: len(cn), Singles: singles})
		}
		for x, q := range qis {
			f := determination(n, cc, cn, qcodes[x].code, qcodes[x].count, a.Header[c], a.Header[q])
			switch {
			case f.Chance < 1 && f.Gain >= minGain:
				out = append(out, f)
			case f.Chance < 1 && f.Pinned-f.PinnedChance >= maxPinned:
				f.Kind = Pins
				f.Share = f.Pinned
				out = append(out, f)
			}
		}
	}
	return out
}

// Unkept returns the findings whose column is not in keep (the columns
// the user publishes despite their findings).
func Unkept(findings []Finding, keep []string) []Finding {
	var out []Finding
	for _, f := range findings {
		if !slices.ContainsFunc(keep, func(k string) bool { return strings.TrimSpace(k) == f.Column }) {
			out = append(out, f)
		}
	}
	return out
}
