package mps

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/solvers"
)

// demoDataDir holds the CLI's demo models (read, not copied, as seeds).
const demoDataDir = "../../cmd/sdcopt/demodata"

// FuzzRead checks that Read never panics, that every error is a
// *ParseError, and that every model it accepts validates and survives
// Write followed by Read: same dimensions, bounds, types, objective and
// coefficients. Numbers are written in their shortest round-trip form, so
// values the file holds verbatim must come back equal; the one float
// tolerance is the bound of a ranged row that the reader recomputes as
// rhs ± |R| (rangeTol ulps, see sameProblem).
//
// The seed corpus: the texts of the reader's tests (valid and malformed,
// with and without a byte-order mark), the written form of every feature
// problem and the demo models of the CLI. Inputs that the fuzzer finds
// breaking the reader belong in TestMalformed or the round-trip tests, as
// named cases saying why they are there.
func FuzzRead(f *testing.F) {
	for _, text := range []string{knownLP, fixedLP, conventionsMPS,
		"ROWS\n N o\n N f\n E e\nCOLUMNS\n x o 1 f 2\n x e 1\nRHS\n o 3 f 9\n e 2\nRANGES\n e -1\nBOUNDS\n UP BND x -4\n BV BND x\nENDATA\n",
		"NAME\nOBJSENSE MAX\nROWS\n N o\n G g\n L l\nCOLUMNS\n MARKER 'MARKER' 'INTORG'\n k o 1 g 1\n MARKER 'MARKER' 'INTEND'\n y l 1\nRHS\n g 1 l 5\nRANGES\n g 3 l 2\nBOUNDS\n LI k -3\n UI k 3\n MI y\nENDATA\n",
		"\ufeff" + knownLP,
	} {
		f.Add(text)
	}
	for _, c := range malformedCases() {
		f.Add(c.text)
	}
	for _, p := range featureProblems() {
		var buf bytes.Buffer
		if err := Write(&buf, p); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.String())
	}
	demos, err := filepath.Glob(filepath.Join(demoDataDir, "*.mps"))
	if err != nil || len(demos) == 0 {
		f.Fatalf("no demo models in %s (%v)", demoDataDir, err)
	}
	for _, path := range demos {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := splitFields(text, nil), strings.Fields(text); strings.Join(got, "\x00") != strings.Join(want, "\x00") || len(got) != len(want) {
			t.Fatalf("splitFields(%q) = %q, want %q", text, got, want)
		}
		p, err := Read(strings.NewReader(text))
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("accepted model does not validate: %v", err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, p); err != nil {
			if errors.Is(err, solvers.ErrUnsupported) {
				t.Skipf("model not expressible: %v", err)
			}
			t.Fatalf("Write: %v", err)
		}
		q, err := Read(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("re-read: %v\n%s", err, buf.String())
		}
		sameProblem(t, p, q)
	})
}
