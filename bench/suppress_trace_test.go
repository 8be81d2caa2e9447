package bench

import (
	"bytes"
	"testing"

	"gonum.org/v1/plot"
)

func TestTraceFigure(t *testing.T) {
	pts := []TracePoint{{0.5, 9000, 0}, {1, 9000, 200}, {2, 232, 230}}
	f, err := TraceFigure("trace", "t", pts)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f.Plot.Y.Scale.(plot.LogScale); !ok {
		t.Errorf("cost axis %T, want a log scale (every incumbent > 0)", f.Plot.Y.Scale)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf, "svg"); err != nil || buf.Len() == 0 {
		t.Fatalf("svg: %v, %d bytes", err, buf.Len())
	}
	// A zero incumbent (nothing to protect) keeps the linear axis.
	f, err = TraceFigure("trace", "t", []TracePoint{{0.1, 0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f.Plot.Y.Scale.(plot.LogScale); ok {
		t.Error("log cost axis with a zero incumbent")
	}
}
