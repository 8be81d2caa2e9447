package kanon

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/model"
)

// TestSparseRoundMatchesDense: round by round, the sparse assignment on
// a candidate graph that contains the dense optimum has the dense
// optimum's weight — with every unused edge as a candidate, and with two
// candidates per record plus the dense optimum's edges.
func TestSparseRoundMatchesDense(t *testing.T) {
	checked := 0
	for seed := range uint64(8) {
		n := 20 + int(seed)*9
		tab := randTable(seed, n, seed%2 == 1)
		k := 2 + int(seed%4)
		st := newRounds(tab, k)
		st.initSparse(2, n) // pool of all records: candidates from full rows
		for r := 2; r <= k; r++ {
			dense, err := roundHungarian(st)
			if err != nil {
				t.Fatal(err)
			}
			want := roundWeight(st, dense)
			// Every unused edge.
			st.candidates(n)
			all, err := solveCandidates(st, st.cand)
			if err != nil {
				t.Fatal(err)
			}
			// Two per record and published record, plus the dense optimum.
			st.candidates(2)
			for i, j := range dense {
				if !slices.Contains(st.cand[i], j) {
					st.cand[i] = append(st.cand[i], j)
				}
			}
			few, err := solveCandidates(st, st.cand)
			if err != nil {
				t.Fatal(err)
			}
			for name, a := range map[string][]int32{"all": all, "few": few} {
				if got := roundWeight(st, a); math.Abs(got-want) > 1e-9*math.Max(1, want) {
					t.Fatalf("seed %d round %d %s candidates: weight %v, dense optimum %v", seed, r, name, got, want)
				}
			}
			checked++
			if err := st.apply(dense); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d rounds compared", checked)
	}
}

// TestSparseHungarianValid: the sparse hungarian gives valid k-regular
// graphs, also with candidate lists so short that rounds need the greedy
// repair, and with every edge a candidate it equals the dense hungarian.
func TestSparseHungarianValid(t *testing.T) {
	repairs := 0
	for seed := range uint64(10) {
		n := 15 + int(seed)*11
		tab := randTable(seed, n, seed%2 == 0)
		for _, k := range []int{2, 3, 6, n / 2} {
			for _, c := range []struct{ L, M int }{{1, 2}, {2, 6}, {0, 0}} {
				r, err := Anonymize(tab, k, &Options{Method: MethodHungarian, Assign: AssignSparse, Candidates: c.L, Pool: c.M, Seed: seed})
				if err != nil {
					t.Fatalf("seed %d n %d k %d L %d M %d: %v", seed, n, k, c.L, c.M, err)
				}
				checkResult(t, tab, k, r)
				repairs += r.Repairs
			}
			if k == 2 {
				// k = 2 is one round after the identity: with every edge
				// a candidate the sparse optimum is the dense one.
				sp, err := Anonymize(tab, k, &Options{Method: MethodHungarian, Assign: AssignSparse, Candidates: n, Pool: n})
				if err != nil {
					t.Fatal(err)
				}
				de, err := Anonymize(tab, k, &Options{Method: MethodHungarian, Assign: AssignDense})
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(sp.GCP-de.GCP) > 1e-12 {
					t.Fatalf("seed %d k 2: sparse GCP %v, dense %v", seed, sp.GCP, de.GCP)
				}
			}
		}
	}
	if repairs == 0 {
		t.Fatal("no round needed the greedy repair: the test lost its coverage of it")
	}
}

func TestAutoPartition(t *testing.T) {
	for _, m := range []string{MethodGreedy, MethodSortGreedy, MethodHungarian, MethodFlow} {
		for _, k := range []int{2, 10, 50} {
			prev := -1
			for _, b := range []time.Duration{time.Second, 10 * time.Second, time.Minute, time.Hour} {
				p, err := AutoPartition(m, 30000, k, 2, b)
				if err != nil {
					t.Fatal(err)
				}
				size := p
				if size == 0 {
					size = 30000
				}
				if size < k || size < prev {
					t.Fatalf("%s k %d budget %v: partition %d (previous %d)", m, k, b, p, prev)
				}
				if size > partitionLadder[0] && PredictSeconds(m, 30000, k, p, 2) > b.Seconds() {
					t.Fatalf("%s k %d budget %v: partition %d predicted %.1f s", m, k, b, p, PredictSeconds(m, 30000, k, p, 2))
				}
				if (m == MethodSortGreedy && size > autoMaxSortGreedy) || (m == MethodFlow && size > autoMaxDense) {
					t.Fatalf("%s: partition %d above the memory cap", m, size)
				}
				prev = size
			}
		}
	}
	for _, c := range []struct {
		m       string
		n, k, w int
		b       time.Duration
	}{{MethodMondrian, 100, 2, 1, 0}, {MethodMIP, 100, 2, 1, 0}, {MethodGreedy, 10, 11, 1, 0}, {MethodGreedy, 10, 2, 0, 0}, {MethodGreedy, 10, 2, 1, -time.Second}} {
		if _, err := AutoPartition(c.m, c.n, c.k, c.w, c.b); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	// Anonymize reports the automatic choice.
	tab := randTable(3, 300, false)
	r, err := Anonymize(tab, 3, &Options{Method: MethodGreedy, Budget: time.Nanosecond, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := AutoPartition(MethodGreedy, 300, 3, 1, time.Nanosecond); r.Partition != want || want != 100 {
		t.Fatalf("automatic partition %d, want %d = 100 (the smallest size)", r.Partition, want)
	}
	checkResult(t, tab, 3, r)
}

// TestMedianPartitions: the partitions cover the records once, have at
// least k records, at most p unless equal values forbid a split, and are
// Mondrian's classes at min size p/2.
func TestMedianPartitions(t *testing.T) {
	tab := randTable(11, 400, true)
	for _, c := range []struct{ k, p int }{{2, 50}, {5, 100}, {3, 0}, {7, 399}} {
		parts := MedianPartitions(tab, c.k, c.p)
		seen := make([]bool, tab.N)
		for _, p := range parts {
			if len(p) < c.k || (c.p > 0 && len(p) > c.p && len(parts) > 1 && len(p) >= 2*c.p) {
				t.Fatalf("k %d p %d: partition of %d", c.k, c.p, len(p))
			}
			for _, i := range p {
				if seen[i] {
					t.Fatalf("record %d twice", i)
				}
				seen[i] = true
			}
		}
		if slices.Contains(seen, false) {
			t.Fatalf("k %d p %d: a record in no partition", c.k, c.p)
		}
	}
}

// TestHierarchyAbsentLeaf: a leaf of the hierarchy file that the data
// lack counts in the NCP denominator and under its ancestors. Records a
// and b (under g1) must share a box at k = 2, which is g1: without the
// absent leaf e g1 covers 2 of 4 leaves (GCP 0.5); with e under g1 it
// covers 3 of 5 (0.6); with e under g2 it covers 2 of 5 (0.4).
func TestHierarchyAbsentLeaf(t *testing.T) {
	base := "a,g1,*\nb,g1,*\nc,g2,*\nd,g2,*\n"
	for _, c := range []struct {
		text string
		want float64
	}{{base, 0.5}, {base + "e,g1,*\n", 0.6}, {base + "e,g2\n", 0.4}} {
		at := model.QIAttr{Name: "c", Kind: model.Categorical, Categories: []string{"a", "b", "c", "d"}}
		h, err := datasets.ReadHierarchy(strings.NewReader(c.text), "h.csv", &at)
		if err != nil {
			t.Fatal(err)
		}
		at.Hier = h
		tab := &model.QITable{Attrs: []model.QIAttr{at}, N: 2, X: []float64{0, 1}}
		for _, m := range []string{MethodHungarian, MethodMondrian} {
			r, err := Anonymize(tab, 2, &Options{Method: m})
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(r.GCP-c.want) > 1e-12 {
				t.Fatalf("%q, %s: GCP %v, want %v", c.text, m, r.GCP, c.want)
			}
		}
	}
}
