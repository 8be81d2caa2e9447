package mps

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"sdcopt/solvers"
)

// FuzzRead checks that Read never panics and that every model it accepts
// validates and survives Write followed by Read unchanged.
func FuzzRead(f *testing.F) {
	f.Add(knownLP)
	f.Add(fixedLP)
	f.Add("ROWS\n N o\n N f\n E e\nCOLUMNS\n x o 1 f 2\n x e 1\nRHS\n o 3 f 9\n e 2\nRANGES\n e -1\nBOUNDS\n UP BND x -4\n BV BND x\nENDATA\n")
	f.Add("NAME\nOBJSENSE MAX\nROWS\n N o\n G g\n L l\nCOLUMNS\n MARKER 'MARKER' 'INTORG'\n k o 1 g 1\n MARKER 'MARKER' 'INTEND'\n y l 1\nRHS\n g 1 l 5\nRANGES\n g 3 l 2\nBOUNDS\n LI k -3\n UI k 3\n MI y\nENDATA\n")
	for _, p := range featureProblems() {
		var buf bytes.Buffer
		if err := Write(&buf, p); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.String())
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
