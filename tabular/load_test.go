package tabular

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	h, err := LoadHRC(write("region.hrc", regionHRC), nil)
	if err != nil || h.Len() != 8 {
		t.Fatalf("LoadHRC: %v, %d codes (want 8)", err, h.Len())
	}
	// An error names the path and the line.
	bad := write("bad.hrc", "N\n@@N1\n")
	if _, err := LoadHRC(bad, nil); err == nil || !strings.HasPrefix(err.Error(), bad+":2: ") {
		t.Errorf("LoadHRC(bad): %v, want it to start with %q", err, bad+":2: ")
	}
	pc, err := LoadParentChild(write("pc.csv", "parent,child\nTotal,N\nN,N1\n"), nil)
	if err != nil || pc.Len() != 3 {
		t.Fatalf("LoadParentChild: %v", err)
	}
	tab, err := LoadMicrodata(write("m.csv", microCSV), regionSectorSpec(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteTableFile(&b, tab); err != nil {
		t.Fatal(err)
	}
	back, err := LoadTableFile(write("t.csv", b.String()), tab.Dims, nil)
	if err != nil || back.Len() != tab.Len() {
		t.Fatalf("LoadTableFile: %v", err)
	}
	if _, err := LoadTableFile(filepath.Join(dir, "none.csv"), tab.Dims, nil); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}
