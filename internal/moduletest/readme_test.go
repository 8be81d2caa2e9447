package moduletest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readmeProgram returns the Go program of the README's section "Using
// sdcopt as a library": its first go code block.
func readmeProgram(t *testing.T) string {
	b, err := os.ReadFile(filepath.Join(checkoutRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "\n## Using sdcopt as a library")
	if i < 0 {
		t.Fatal(`README.md has no section "## Using sdcopt as a library"`)
	}
	s = s[i:]
	j := strings.Index(s, "\n```go\n")
	if j < 0 {
		t.Fatal("the README's library section has no go code block")
	}
	s = s[j+len("\n```go\n"):]
	k := strings.Index(s, "\n```")
	if k < 0 {
		t.Fatal("the README's library go code block is not closed")
	}
	return s[:k+1]
}

// TestREADMEProgram builds and runs the README's library program, as
// written, on a small people.csv: the claims it makes about the API
// (LoadCSV's result, Standardize, MDAV, IL, WriteProtected, the blank
// import) compile and hold.
func TestREADMEProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs another module (tens of seconds)")
	}
	prog := readmeProgram(t)
	if !strings.HasPrefix(prog, "package main\n") {
		t.Fatalf("the README's library program is not a complete program:\n%s", prog)
	}
	const people = "id,region,income,age\n" +
		"a1,north,1200,34\na2,south,1350,29\na3,north,980,41\n" +
		"a4,east,2100,52\na5,east,1990,48\na6,south,1010,33\n"
	out, errOut := runModule(t, map[string]string{"main.go": prog, "people.csv": people})
	// MDAV with k = 3 on 6 records: two groups of 3; the ids and regions
	// are kept, income and age replaced by group means (checked below
	// against the means of the groups the program writes).
	if !strings.HasPrefix(errOut, "2 groups, IL ") {
		t.Errorf("stderr = %q, want the number of groups and IL", errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 7 || lines[0] != "id,region,income,age" {
		t.Fatalf("protected file:\n%s", out)
	}
	count := map[string]int{}
	for i, l := range lines[1:] {
		f := strings.Split(l, ",")
		if len(f) != 4 || f[0] != strings.Split(strings.Split(people, "\n")[i+1], ",")[0] {
			t.Fatalf("line %d of the protected file: %q", i+2, l)
		}
		count[f[2]+","+f[3]]++
	}
	if len(count) != 2 {
		t.Errorf("protected file has %d distinct (income, age) pairs, want 2 groups:\n%s", len(count), out)
	}
	for v, c := range count {
		if c != 3 {
			t.Errorf("(income, age) = %s appears %d times, want 3", v, c)
		}
	}
}
