package tabular

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcopt/sdcopt/datasets"
)

// DefaultRoot is the code of a hierarchy's root (the total) when a
// settings struct leaves it empty, as τ-ARGUS names the implicit total.
const DefaultRoot = "Total"

// ErrHierarchy is the sentinel of every malformed hierarchy: an orphan
// (a code deeper than its predecessor allows), a cycle, a code twice, an
// empty code, a code of the wrong length. The error itself is a
// *datasets.DataError naming the file, line and field.
var ErrHierarchy = errors.New("tabular: bad hierarchy")

// Hierarchy is a tree of codes: the root (index 0) is the total, every
// other code has one parent and its value is part of its parent's. Codes
// are numbered in pre-order (a parent before its children, the children
// in the order the source gives them), which is the canonical order of
// every table built on the hierarchy. A flat variable is a root with
// leaves. A Hierarchy is immutable once built.
type Hierarchy struct {
	codes    []string
	parent   []int // -1 for the root
	children [][]int
	depth    []int // 0 for the root
	index    map[string]int
}

// Len returns the number of codes, the root included.
func (h *Hierarchy) Len() int { return len(h.codes) }

// Root returns the code of the root (the total).
func (h *Hierarchy) Root() string { return h.codes[0] }

// Code returns the code with index i (0 is the root).
func (h *Hierarchy) Code(i int) string { return h.codes[i] }

// Codes returns the codes in canonical (pre-)order; the slice is a copy.
func (h *Hierarchy) Codes() []string { return slices.Clone(h.codes) }

// Index returns the index of a code and whether it is in the hierarchy.
func (h *Hierarchy) Index(code string) (int, bool) {
	i, ok := h.index[code]
	return i, ok
}

// Parent returns the index of the parent of code i, -1 for the root.
func (h *Hierarchy) Parent(i int) int { return h.parent[i] }

// Children returns the indices of the children of code i (empty for a
// leaf). The slice must not be modified.
func (h *Hierarchy) Children(i int) []int { return h.children[i] }

// IsLeaf reports whether code i has no children.
func (h *Hierarchy) IsLeaf(i int) bool { return len(h.children[i]) == 0 }

// Depth returns the depth of code i: 0 for the root, 1 for its children.
func (h *Hierarchy) Depth(i int) int { return h.depth[i] }

// Leaves returns the indices of the leaves in canonical order.
func (h *Hierarchy) Leaves() []int {
	var l []int
	for i := range h.codes {
		if h.IsLeaf(i) {
			l = append(l, i)
		}
	}
	return l
}

// Equal reports whether h and o are the same tree: the same codes in the
// same order with the same parents.
func (h *Hierarchy) Equal(o *Hierarchy) bool {
	return h == o || (slices.Equal(h.codes, o.codes) && slices.Equal(h.parent, o.parent))
}

// edge is one parent → child link as read, with where it was read.
type edge struct {
	parent, child string
	line          int
}

// build makes a hierarchy from a root and edges whose parents are the
// root or an earlier edge's child... in any order: children keep the
// order of their edges. It reports codes twice, cycles and codes
// unreachable from the root as *datasets.DataError about file, field.
func build(file, field, root string, edges []edge) (*Hierarchy, error) {
	kids := map[string][]string{}
	seen := map[string]int{root: 0} // code → line it was defined on (0: the root)
	for _, e := range edges {
		if prev, dup := seen[e.child]; dup {
			msg := fmt.Sprintf("code %q twice (first on line %d)", e.child, prev)
			if prev == 0 {
				msg = fmt.Sprintf("code %q is the root's", e.child)
			}
			return nil, &datasets.DataError{File: file, Line: e.line, Column: field, Msg: msg, Err: ErrHierarchy}
		}
		seen[e.child] = e.line
		kids[e.parent] = append(kids[e.parent], e.child)
	}
	h := &Hierarchy{index: make(map[string]int, len(edges)+1)}
	var walk func(code string, parent, depth int)
	walk = func(code string, parent, depth int) {
		i := len(h.codes)
		h.index[code] = i
		h.codes = append(h.codes, code)
		h.parent = append(h.parent, parent)
		h.children = append(h.children, nil)
		h.depth = append(h.depth, depth)
		if parent >= 0 {
			h.children[parent] = append(h.children[parent], i)
		}
		for _, c := range kids[code] {
			walk(c, i, depth+1)
		}
	}
	walk(root, -1, 0)
	if len(h.codes) != len(edges)+1 {
		// Every child has one parent, so a code not reached from the root
		// lies on a cycle or below one (or its parent is undefined).
		for _, e := range edges {
			if _, ok := h.index[e.child]; ok {
				continue
			}
			if _, ok := seen[e.parent]; !ok {
				return nil, &datasets.DataError{File: file, Line: e.line, Column: field, Err: ErrHierarchy,
					Msg: fmt.Sprintf("orphan: parent %q of %q is not in the hierarchy", e.parent, e.child)}
			}
			return nil, &datasets.DataError{File: file, Line: e.line, Column: field, Err: ErrHierarchy,
				Msg: fmt.Sprintf("cycle: %q is not below the root %q", e.child, root)}
		}
	}
	return h, nil
}

// NewFlat returns the flat hierarchy root → leaves (root DefaultRoot when
// empty), the leaves in the order given. An empty or repeated code is an
// error wrapping ErrHierarchy.
func NewFlat(root string, leaves []string) (*Hierarchy, error) {
	if root == "" {
		root = DefaultRoot
	}
	edges := make([]edge, len(leaves))
	for i, l := range leaves {
		if strings.TrimSpace(l) == "" {
			return nil, fmt.Errorf("%w: empty code (leaf %d)", ErrHierarchy, i+1)
		}
		edges[i] = edge{root, l, i + 1}
	}
	h, err := build("leaves", "", root, edges)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrHierarchy, err.(*datasets.DataError).Msg)
	}
	return h, nil
}

// NewHierarchy returns the hierarchy of parent → child pairs below root
// (DefaultRoot when empty): parents[i] is the parent of children[i], and
// a parent must be root or some child. Errors wrap ErrHierarchy.
func NewHierarchy(root string, parents, children []string) (*Hierarchy, error) {
	if len(parents) != len(children) {
		panic("tabular: NewHierarchy: parents and children differ in length")
	}
	if root == "" {
		root = DefaultRoot
	}
	edges := make([]edge, len(children))
	for i := range children {
		if strings.TrimSpace(children[i]) == "" || strings.TrimSpace(parents[i]) == "" {
			return nil, fmt.Errorf("%w: empty code (pair %d)", ErrHierarchy, i+1)
		}
		edges[i] = edge{parents[i], children[i], i + 1}
	}
	h, err := build("pairs", "", root, edges)
	if err != nil {
		de := err.(*datasets.DataError)
		return nil, fmt.Errorf("%w: pair %d: %v", ErrHierarchy, de.Line, de.Msg)
	}
	return h, nil
}

// HRCSettings are the options of ReadHRC; nil means defaults.
type HRCSettings struct {
	Root   string // code of the implicit total; default DefaultRoot
	Marker string // the depth marker; default "@" (τ-ARGUS's HierLeadString)
}

// ReadHRC reads a τ-ARGUS hierarchy (.hrc) file: one code per line, the
// codes in pre-order, each line's depth below the implicit root given by
// the number of leading markers ("@"): no marker for a child of the root,
// one for a grandchild, and so on. Spaces around a code are ignored, and
// so are blank lines. Errors are *datasets.DataError naming the file (name),
// the line and the field "code", wrapping ErrHierarchy: an orphan (a line
// more than one level deeper than the line before, or a first line
// below depth 1), an empty code, a code twice.
func ReadHRC(r io.Reader, name string, s *HRCSettings) (*Hierarchy, error) {
	root, marker := DefaultRoot, "@"
	if s != nil {
		if s.Root != "" {
			root = s.Root
		}
		if s.Marker != "" {
			marker = s.Marker
		}
	}
	sc := bufio.NewScanner(datasets.SkipBOM(r))
	sc.Buffer(nil, 1<<20)
	var edges []edge
	path := []string{root} // path[d] is the last code read at depth d
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		depth := 1
		for strings.HasPrefix(text, marker) {
			text = text[len(marker):]
			depth++
		}
		code := strings.TrimSpace(text)
		if code == "" {
			return nil, &datasets.DataError{File: name, Line: line, Column: "code", Msg: "empty code", Err: ErrHierarchy}
		}
		if depth > len(path) {
			return nil, &datasets.DataError{File: name, Line: line, Column: "code", Err: ErrHierarchy,
				Msg: fmt.Sprintf("orphan: %q at depth %d has no parent at depth %d", code, depth, depth-1)}
		}
		edges = append(edges, edge{path[depth-1], code, line})
		path = append(path[:depth], code)
	}
	if err := sc.Err(); err != nil {
		return nil, &datasets.DataError{File: name, Msg: err.Error()}
	}
	return build(name, "code", root, edges)
}

// PCSettings are the options of ReadParentChild; nil means defaults.
type PCSettings struct {
	Root string // code of an implicit total over several top codes; default DefaultRoot
	Sep  rune   // field separator; default ','
}

// ReadParentChild reads a hierarchy from a CSV file with a header row and
// two columns, parent and child (whatever their header names), one link a
// row. The root is the one code that is a parent and never a child; when
// several codes are, they become the children of an implicit root
// (PCSettings.Root). Errors are *datasets.DataError naming the file, the
// line and the field (the header name), wrapping ErrHierarchy: an empty
// code, a child with two parents ("code twice"), a cycle, a row without
// two fields.
func ReadParentChild(r io.Reader, name string, s *PCSettings) (*Hierarchy, error) {
	root, sep := DefaultRoot, ','
	if s != nil {
		if s.Root != "" {
			root = s.Root
		}
		if s.Sep != 0 {
			sep = s.Sep
		}
	}
	cr := csv.NewReader(datasets.SkipBOM(r))
	cr.Comma = sep
	cr.FieldsPerRecord = 2
	header, err := cr.Read()
	if err != nil {
		return nil, datasets.CSVError(name, err)
	}
	var edges []edge
	children := map[string]bool{}
	rows := datasets.NewRows(cr, name, 0)
	for rec, line := range rows.All() {
		for j := range 2 {
			if strings.TrimSpace(rec[j]) == "" {
				return nil, &datasets.DataError{File: name, Line: line, Column: header[j], Msg: "empty code", Err: ErrHierarchy}
			}
		}
		p, c := strings.TrimSpace(rec[0]), strings.TrimSpace(rec[1])
		edges = append(edges, edge{p, c, line})
		children[c] = true
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var tops []string
	for _, e := range edges {
		if !children[e.parent] && !slices.Contains(tops, e.parent) {
			tops = append(tops, e.parent)
		}
	}
	switch {
	case len(tops) == 1:
		root = tops[0]
	case len(tops) > 1:
		for _, t := range tops {
			if t == root {
				return nil, &datasets.DataError{File: name, Column: header[0], Err: ErrHierarchy,
					Msg: fmt.Sprintf("several top codes (%s), one of them the implicit root %q", strings.Join(tops, ", "), root)}
			}
		}
		top := make([]edge, len(tops))
		for i, t := range tops {
			top[i] = edge{root, t, 0}
		}
		edges = append(top, edges...)
	default:
		if len(edges) > 0 { // every parent is a child: all on cycles
			e := edges[0]
			return nil, &datasets.DataError{File: name, Line: e.line, Column: header[1], Err: ErrHierarchy,
				Msg: fmt.Sprintf("cycle: no top code; %q is below itself", e.child)}
		}
	}
	return build(name, header[1], root, edges)
}

// ParseLengths reads a code-prefix rule such as "1,3": the lengths of the
// codes at depths 1, 2, ... (strictly increasing, positive).
func ParseLengths(s string) ([]int, error) {
	var ls []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 || (len(ls) > 0 && n <= ls[len(ls)-1]) {
			return nil, fmt.Errorf("%w: bad prefix lengths %q (want increasing positive integers such as \"1,3\")", ErrHierarchy, s)
		}
		ls = append(ls, n)
	}
	return ls, nil
}

// PrefixHierarchy builds the hierarchy of leaf codes by a code-prefix
// rule: with lengths l_1 < ... < l_k, a leaf has l_k characters and its
// ancestor at depth d is its first l_d characters (so lengths "1,3" make
// "123" a child of "1"). Intermediate codes are ordered by first
// appearance among the leaves, leaves likewise; sort the leaves first for a
// sorted hierarchy. A leaf of another length is an error wrapping
// ErrHierarchy naming the leaf's position; repeated leaves are merged.
func PrefixHierarchy(root string, leaves []string, lengths []int) (*Hierarchy, error) {
	if len(lengths) == 0 {
		panic("tabular: PrefixHierarchy without lengths")
	}
	if root == "" {
		root = DefaultRoot
	}
	var edges []edge
	seen := map[string]bool{}
	last := lengths[len(lengths)-1]
	for i, leaf := range leaves {
		if len(leaf) != last {
			return nil, fmt.Errorf("%w: code %q (%d) has %d characters, the prefix rule %v wants %d",
				ErrHierarchy, leaf, i+1, len(leaf), lengths, last)
		}
		parent := root
		for _, l := range lengths {
			c := leaf[:l]
			if !seen[c] {
				seen[c] = true
				edges = append(edges, edge{parent, c, i + 1})
			}
			parent = c
		}
	}
	h, err := build("prefix", "", root, edges)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrHierarchy, err.(*datasets.DataError).Msg)
	}
	return h, nil
}

// WriteHRC writes h as a τ-ARGUS hierarchy (.hrc) file, the format ReadHRC
// reads: every code but the root, in pre-order, one per line, preceded by
// one "@" per level below the root's children. ReadHRC of the output gives
// a hierarchy Equal to h (with the same root).
func WriteHRC(w io.Writer, h *Hierarchy) error {
	bw := bufio.NewWriter(w)
	for i := 1; i < h.Len(); i++ {
		bw.WriteString(strings.Repeat("@", h.Depth(i)-1))
		bw.WriteString(h.Code(i))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
