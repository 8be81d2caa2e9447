package mps

import (
	"bufio"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sdcopt/sdcopt/solvers"
)

// ReadFile reads the MPS model in path (gzip-compressed when the name ends
// in ".gz"). Parse errors are *ParseError values naming the file and line.
func ReadFile(path string) (*solvers.Problem, error) {
	p, _, err := DecodeFile(path)
	return p, err
}

// DecodeFile is ReadFile that also returns the reader's warnings.
func DecodeFile(path string) (*solvers.Problem, []Warning, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bufio.NewReader(f))
		if err != nil {
			return nil, nil, &ParseError{File: path, Msg: "gzip: " + err.Error(), Err: err}
		}
		defer zr.Close()
		r = zr
	}
	return Decode(r, path)
}

// WriteFile writes p to path as free MPS (gzip-compressed when the name
// ends in ".gz"). The file appears atomically: the model is written to a
// temporary file in the same directory, which is renamed over path only
// when everything succeeded; on error no file is left behind.
func WriteFile(path string, p *solvers.Problem) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if strings.HasSuffix(path, ".gz") {
		zw := gzip.NewWriter(tmp)
		if err = Write(zw, p); err != nil {
			return err
		}
		if err = zw.Close(); err != nil {
			return err
		}
	} else if err = Write(tmp, p); err != nil {
		return err
	}
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
