package datasets

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"io"
)

// utf8BOM is the UTF-8 encoding of U+FEFF, the byte-order mark that Excel
// ("CSV UTF-8") and other Windows programs write at the start of a file.
const utf8BOM = "\xef\xbb\xbf"

// SkipBOM returns a reader of r's bytes without a leading UTF-8
// byte-order mark (EF BB BF), if r starts with one; otherwise the bytes
// are unchanged. Only the first three bytes are looked at: a mark
// anywhere else is data. The result buffers r (it is r itself, advanced
// past the mark, when r is a *bufio.Reader), so read from it, not from r,
// afterwards. Every reader of this package uses it; wrap the input of any
// other CSV reader the same way:
//
//	cr := csv.NewReader(datasets.SkipBOM(f))
func SkipBOM(r io.Reader) io.Reader {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReader(r)
	}
	b, err := br.Peek(len(utf8BOM))
	switch {
	case string(b) == utf8BOM:
		br.Discard(len(utf8BOM)) // cannot fail: the bytes are buffered
	case err != nil && err != io.EOF && err != bufio.ErrBufferFull:
		// Peek clears the error it returns: keep it for the caller, after
		// the bytes that came before it.
		return io.MultiReader(bytes.NewReader(bytes.Clone(b)), &errReader{err})
	}
	return br
}

// errReader fails every read with err.
type errReader struct{ err error }

func (e *errReader) Read([]byte) (int, error) { return 0, e.err }

// newCSVReader is the CSV reader of every input of this package: a
// leading byte-order mark skipped (SkipBOM) and records of any length
// (the callers check the number of fields themselves).
func newCSVReader(r io.Reader) *csv.Reader {
	return newCSVReaderSep(r, ',')
}

// newCSVReaderSep is newCSVReader with the field separator sep.
func newCSVReaderSep(r io.Reader, sep rune) *csv.Reader {
	cr := csv.NewReader(SkipBOM(r))
	cr.Comma = sep
	cr.FieldsPerRecord = -1
	return cr
}
