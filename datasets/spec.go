package datasets

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// SpecKind says where a data specification points.
type SpecKind int

const (
	SpecFile      SpecKind = iota // a CSV file
	SpecCASC                      // a CASC benchmark file by name
	SpecSynthetic                 // a seeded synthetic generator
)

// DefaultSeed is the seed of "synthetic:NAME" without one.
const DefaultSeed = 1

// Spec is a parsed data specification, the --data argument of the CLI:
//
//	FILE                     a CSV file with a header row
//	tarragona|census|eia     a CASC benchmark file (any case)
//	synthetic:NAME[:SEED]    a generator, NAME one of SyntheticNames
//	                         (or gauss-N-D-C), SEED a non-negative integer
//	                         (default 1)
//
// A file whose name collides with a data set name can be given as ./NAME.
type Spec struct {
	Kind SpecKind // what the specification names
	Path string   // SpecFile
	Name string   // SpecCASC (lower case) and SpecSynthetic
	Seed uint64   // SpecSynthetic
}

// ParseSpec parses a data specification. It does not open files or run
// generators, but it does check generator names and parameters, the
// memory the generated data would take included (an error wrapping
// ErrTooLarge beyond MemoryLimit).
func ParseSpec(s string) (Spec, error) {
	switch {
	case s == "":
		return Spec{}, fmt.Errorf("datasets: empty data specification")
	case IsCASC(s):
		return Spec{Kind: SpecCASC, Name: strings.ToLower(s)}, nil
	case strings.HasPrefix(s, "synthetic:"):
		parts := strings.Split(strings.TrimPrefix(s, "synthetic:"), ":")
		if len(parts) > 2 {
			return Spec{}, fmt.Errorf("datasets: %q: want synthetic:NAME[:SEED]", s)
		}
		sp := Spec{Kind: SpecSynthetic, Name: strings.ToLower(parts[0]), Seed: DefaultSeed}
		if _, err := parseGenerator(sp.Name); err != nil {
			return Spec{}, fmt.Errorf("datasets: %q: %w", s, err)
		}
		if len(parts) == 2 {
			seed, err := strconv.ParseUint(parts[1], 10, 64)
			if err != nil {
				return Spec{}, fmt.Errorf("datasets: %q: seed %q is not a non-negative integer", s, parts[1])
			}
			sp.Seed = seed
		}
		return sp, nil
	}
	return Spec{Kind: SpecFile, Path: s}, nil
}

// String gives the specification back in canonical form.
func (s Spec) String() string {
	switch s.Kind {
	case SpecCASC:
		return s.Name
	case SpecSynthetic:
		return fmt.Sprintf("synthetic:%s:%d", s.Name, s.Seed)
	}
	return s.Path
}

// File returns the file a specification reads: the CSV file, or the CASC
// file in SharedDir; false for a generator (or when SharedDir cannot be
// found, which loading will report).
func (s Spec) File() (string, bool) {
	switch s.Kind {
	case SpecFile:
		return s.Path, true
	case SpecCASC:
		dir, err := SharedDir()
		if err != nil {
			return "", false
		}
		return filepath.Join(dir, cascFiles[s.Name].file), true
	}
	return "", false
}

// Load reads or generates the table a specification names, with cols
// selecting the microaggregated columns by name (nil: every column of
// numbers; a file column mixing numbers with other cells is then an
// error, see ReadCSV).
func Load(spec string, cols []string) (*Table, error) {
	sp, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	return sp.Load(cols)
}

// Load reads or generates the table of a parsed specification.
func (s Spec) Load(cols []string) (*Table, error) {
	return s.LoadWith(cols, nil)
}

// LoadWith is Load with the options of a CSV file (LoadCSVWith); the
// benchmark files and the generators have no missing values and their own
// format, and ignore opt.
func (s Spec) LoadWith(cols []string, opt *CSVOptions) (*Table, error) {
	switch s.Kind {
	case SpecCASC:
		return LoadCASCTable(s.Name, cols)
	case SpecSynthetic:
		ds, err := Synthetic(s.Name, s.Seed)
		if err != nil {
			return nil, err
		}
		return TableFromDataset(ds, s.String(), cols)
	}
	return LoadCSVWith(s.Path, cols, opt)
}
