package server

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"mime/multipart"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcopt/sdcopt/audit"
	"github.com/sdcopt/sdcopt/datasets"
)

// upload is a parsed PUT /v1/admin/tables/{name}: a long CSV table, or
// microdata (vars given) with the options of their levels and auditor.
type upload struct {
	policy audit.Policy
	data   []byte // the table's or the microdata's CSV
	micro  bool
	vars   []string
	lopt   datasets.LevelOptions
	mopt   audit.MicrodataOptions
}

// badUpload is a 400 answer.
func badUpload(format string, args ...any) error {
	return &requestError{status: http.StatusBadRequest, msg: fmt.Sprintf(format, args...)}
}

// The query parameters of an upload: policy for every table, the others
// for microdata only (vars=... makes the upload microdata).
var (
	tableParams = []string{"policy"}
	microParams = []string{"vars", "min_level_count", "max_cells", "protect_collapsed"}
)

// readUpload reads the query and the body of an upload. The body is the
// CSV, or for microdata a multipart/form-data body with the part "data"
// (the CSV) and optionally "levels" (a levels file, CSV variable,level).
// Every query parameter is checked, none ignored: an unknown or repeated
// one, or a microdata one on a table, is an error naming it.
func (s *Server) readUpload(w http.ResponseWriter, r *http.Request) (*upload, error) {
	q := r.URL.Query()
	u := &upload{micro: q.Has("vars")}
	for _, k := range slices.Sorted(maps.Keys(q)) {
		switch {
		case slices.Contains(tableParams, k):
		case slices.Contains(microParams, k):
			if !u.micro {
				return nil, badUpload("query parameter %q applies to microdata only (with vars=V1,V2,...)", k)
			}
		default:
			return nil, badUpload("unknown query parameter %q (an upload takes %s)", k, strings.Join(append(slices.Clone(tableParams), microParams...), ", "))
		}
		if n := len(q[k]); n > 1 {
			return nil, badUpload("query parameter %q given %d times", k, n)
		}
	}
	var err error
	if u.policy, err = audit.ParsePolicy(q.Get("policy")); err != nil {
		return nil, badUpload("%v", err)
	}
	if u.micro {
		u.vars = strings.Split(q.Get("vars"), ",")
		count := func(k string) (int, error) {
			v := q.Get(k)
			if !q.Has(k) {
				return 0, nil
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return 0, badUpload("query parameter %s=%q: want a whole number, 0 or more", k, v)
			}
			return n, nil
		}
		if u.lopt.MinCount, err = count("min_level_count"); err != nil {
			return nil, err
		}
		if u.mopt.MaxCells, err = count("max_cells"); err != nil {
			return nil, err
		}
		if v := q.Get("protect_collapsed"); q.Has("protect_collapsed") {
			if u.mopt.ProtectCollapsed, err = strconv.ParseBool(v); err != nil {
				return nil, badUpload("query parameter protect_collapsed=%q: want true or false", v)
			}
		}
	}
	body := http.MaxBytesReader(w, r.Body, s.cfg.MaxTableBody)
	tooLarge := func(err error) error {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return &requestError{status: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf("upload larger than %d bytes", s.cfg.MaxTableBody)}
		}
		return badUpload("reading the upload: %v", err)
	}
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "multipart/form-data" {
		if u.data, err = io.ReadAll(body); err != nil {
			return nil, tooLarge(err)
		}
		return u, nil
	}
	if !u.micro {
		return nil, badUpload("a multipart upload is for microdata (with vars=...); send a table as the CSV body")
	}
	parts := map[string][]byte{}
	mr := multipart.NewReader(body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, tooLarge(err)
		}
		name := p.FormName()
		if name != "data" && name != "levels" {
			return nil, badUpload("multipart part %q: want \"data\" (the microdata CSV) and optionally \"levels\" (CSV variable,level)", name)
		}
		if _, dup := parts[name]; dup {
			return nil, badUpload("multipart part %q given twice", name)
		}
		if parts[name], err = io.ReadAll(p); err != nil {
			return nil, tooLarge(err)
		}
	}
	var ok bool
	if u.data, ok = parts["data"]; !ok {
		return nil, badUpload("multipart upload without the part \"data\" (the microdata CSV)")
	}
	if lv, ok := parts["levels"]; ok {
		if u.lopt.Levels, err = datasets.ReadLevelsOf(bytes.NewReader(lv), "levels", u.vars); err != nil {
			return nil, badUpload("%v", err)
		}
	}
	return u, nil
}
