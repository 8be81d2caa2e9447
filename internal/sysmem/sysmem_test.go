package sysmem

import (
	"runtime"
	"testing"
)

func TestDefaultLimit(t *testing.T) {
	phys := Physical()
	if runtime.GOOS == "linux" && phys == 0 {
		t.Fatal("physical memory not measured on Linux")
	}
	want := int64(FallbackPhysical / 2)
	if phys > 0 {
		want = int64(phys / 2)
	}
	if got := DefaultLimit(); got != want {
		t.Errorf("DefaultLimit() = %d, want %d", got, want)
	}
}

func TestHuman(t *testing.T) {
	for _, c := range []struct {
		b    float64
		want string
	}{{0, "0 B"}, {999, "999 B"}, {1000, "1.0 kB"}, {12.6e9, "12.6 GB"}, {8e13, "80.0 TB"}} {
		if got := Human(c.b); got != c.want {
			t.Errorf("Human(%g) = %q, want %q", c.b, got, c.want)
		}
	}
}
