package server

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/sdcopt/sdcopt/model"
)

// ErrLabels reports a labels file that cannot be used.
var ErrLabels = errors.New("server: bad labels")

// VariableLabels says what a variable is (Label) and what its levels mean
// (Levels: level -> label).
type VariableLabels struct {
	Label  string            `json:"label,omitempty"`
	Levels map[string]string `json:"levels,omitempty"`
}

// Labels are the labels of a table's variables, by variable name. They
// are shown on the analysts' page beside the names and levels; the
// decisions and the API keep using the names and levels.
type Labels map[string]VariableLabels

// maxLabel bounds the length of one label (bytes).
const maxLabel = 200

// ParseLabels reads labels as JSON
//
//	{"A": {"label": "Smoker", "levels": {"1": "yes", "2": "no"}}}
//
// or, when the content does not start with '{', as CSV with the header
// variable,level,label: one row per level, and a row with an empty level
// for the variable's own label. name is the file's name in error
// messages, which give the line (CSV) and the field.
func ParseLabels(r io.Reader, name string) (Labels, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrLabels, name, err)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("%w: %s: not UTF-8 text", ErrLabels, name)
	}
	var l Labels
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			return nil, fmt.Errorf("%w: %s: want {\"VAR\": {\"label\": ..., \"levels\": {\"LEVEL\": ...}}}: %v", ErrLabels, name, err)
		}
	} else {
		cr := csv.NewReader(bytes.NewReader(data))
		cr.FieldsPerRecord = 3
		head, err := cr.Read()
		if err != nil {
			return nil, fmt.Errorf("%w: %s: line 1: %v", ErrLabels, name, err)
		}
		if strings.TrimSpace(head[0]) != "variable" || strings.TrimSpace(head[1]) != "level" || strings.TrimSpace(head[2]) != "label" {
			return nil, fmt.Errorf("%w: %s: line 1: header %q, want variable,level,label", ErrLabels, name, strings.Join(head, ","))
		}
		l = Labels{}
		for {
			rec, err := cr.Read()
			if err == io.EOF {
				break
			}
			line, _ := cr.FieldPos(0)
			if err != nil {
				return nil, fmt.Errorf("%w: %s: %v", ErrLabels, name, err)
			}
			v, lev, lab := strings.TrimSpace(rec[0]), strings.TrimSpace(rec[1]), strings.TrimSpace(rec[2])
			if v == "" {
				return nil, fmt.Errorf("%w: %s: line %d: field variable is empty", ErrLabels, name, line)
			}
			vl := l[v]
			if lev == "" {
				if vl.Label != "" {
					return nil, fmt.Errorf("%w: %s: line %d: variable %q labelled twice", ErrLabels, name, line, v)
				}
				vl.Label = lab
			} else {
				if vl.Levels == nil {
					vl.Levels = map[string]string{}
				}
				if _, dup := vl.Levels[lev]; dup {
					return nil, fmt.Errorf("%w: %s: line %d: level %q of %q labelled twice", ErrLabels, name, line, lev, v)
				}
				vl.Levels[lev] = lab
			}
			l[v] = vl
		}
	}
	for v, vl := range l {
		if len(vl.Label) > maxLabel {
			return nil, fmt.Errorf("%w: %s: the label of %q is longer than %d bytes", ErrLabels, name, v, maxLabel)
		}
		for lev, lab := range vl.Levels {
			if len(lab) > maxLabel {
				return nil, fmt.Errorf("%w: %s: the label of level %q of %q is longer than %d bytes", ErrLabels, name, lev, v, maxLabel)
			}
		}
	}
	return l, nil
}

// Check refuses labels of variables or levels the table does not have
// (a typo would otherwise leave a level unlabelled without a word).
func (l Labels) Check(vars []model.Variable) error {
	for v, vl := range l {
		j := -1
		for i := range vars {
			if vars[i].Name == v {
				j = i
			}
		}
		if j < 0 {
			return fmt.Errorf("%w: the table has no variable %q", ErrLabels, v)
		}
		for lev := range vl.Levels {
			found := false
			for _, x := range vars[j].Levels {
				found = found || x == lev
			}
			if !found {
				return fmt.Errorf("%w: variable %q has no level %q (levels: %s)", ErrLabels, v, lev, strings.Join(vars[j].Levels, ", "))
			}
		}
	}
	return nil
}

// SetLabels replaces the labels of a table's variables (checked against
// its variables); the decisions and releases are unchanged.
func (s *Store) SetLabels(ctx context.Context, name string, l Labels) error {
	info, err := s.Table(ctx, name)
	if err != nil {
		return err
	}
	if err := l.Check(info.Vars); err != nil {
		return err
	}
	if l == nil {
		l = Labels{}
	}
	lj, _ := json.Marshal(l)
	_, err = s.db.ExecContext(ctx, `UPDATE conf_tables SET labels_json = ? WHERE id = ?`, string(lj), info.ID)
	return err
}
