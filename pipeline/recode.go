package pipeline

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// The compact encoding of a batch of records (Rec), used both for the
// staged input (one base64 line per batch) and as the Beam coder of Rec,
// so that the runner's copies of the records between stages are small:
// a runner such as prism keeps the elements of a stage in memory. Values
// that are integers of magnitude below 2^53 (ages, category codes, counts)
// take one or two bytes; any other value keeps its 8 bytes, so the
// encoding is exact for every float64 (−0 included).
//
// Layout: uvarint count, uvarint values per record, uvarint cells per
// record, one flag byte (1: file rows present), the indices (zigzag
// deltas), the file rows if present (zigzag deltas), the values (uvarint
// 2·zigzag(v) for an integer v, else the byte 1 and the 8 bytes of the
// IEEE bits, little-endian), the cells (uvarint length and bytes).

var errRecCode = errors.New("pipeline: malformed record batch")

func zigzag(v int64) uint64   { return uint64(v<<1) ^ uint64(v>>63) }
func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// encodeRec encodes r compactly (see above).
func encodeRec(r Rec) []byte {
	n := len(r.I)
	d, c := 0, 0
	if n > 0 {
		d, c = len(r.X)/n, len(r.Rest)/n
	}
	b := make([]byte, 0, 16+n*(2+d*2))
	b = binary.AppendUvarint(b, uint64(n))
	b = binary.AppendUvarint(b, uint64(d))
	b = binary.AppendUvarint(b, uint64(c))
	if r.Row != nil {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	prev := int64(0)
	for _, i := range r.I {
		b = binary.AppendUvarint(b, zigzag(i-prev))
		prev = i
	}
	if r.Row != nil {
		prev = 0
		for _, i := range r.Row {
			b = binary.AppendUvarint(b, zigzag(i-prev))
			prev = i
		}
	}
	for _, v := range r.X {
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 && !(v == 0 && math.Signbit(v)) {
			b = binary.AppendUvarint(b, zigzag(int64(v))<<1)
		} else {
			b = append(b, 1)
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	for _, s := range r.Rest {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

// decodeRec decodes a batch encoded by encodeRec.
func decodeRec(b []byte) (Rec, error) {
	var r Rec
	pos := 0
	uv := func() (uint64, error) {
		v, w := binary.Uvarint(b[pos:])
		if w <= 0 {
			return 0, errRecCode
		}
		pos += w
		return v, nil
	}
	n64, err := uv()
	if err != nil {
		return r, err
	}
	d64, err := uv()
	if err != nil {
		return r, err
	}
	c64, err := uv()
	if err != nil {
		return r, err
	}
	// Every record takes at least one byte per index, value and cell.
	if n64 > uint64(len(b)) || d64 > uint64(len(b)) || c64 > uint64(len(b)) ||
		(n64 > 0 && (d64+c64+1)*n64 > uint64(len(b))) || pos >= len(b) {
		return r, errRecCode
	}
	n, d, c := int(n64), int(d64), int(c64)
	hasRow := b[pos] == 1
	pos++
	r.I = make([]int64, n)
	prev := int64(0)
	for x := range r.I {
		u, err := uv()
		if err != nil {
			return r, err
		}
		prev += unzigzag(u)
		r.I[x] = prev
	}
	if hasRow {
		r.Row = make([]int64, n)
		prev = 0
		for x := range r.Row {
			u, err := uv()
			if err != nil {
				return r, err
			}
			prev += unzigzag(u)
			r.Row[x] = prev
		}
	}
	r.X = make([]float64, n*d)
	for x := range r.X {
		if pos < len(b) && b[pos] == 1 {
			if pos+9 > len(b) {
				return r, errRecCode
			}
			r.X[x] = math.Float64frombits(binary.LittleEndian.Uint64(b[pos+1:]))
			pos += 9
			continue
		}
		u, err := uv()
		if err != nil {
			return r, err
		}
		r.X[x] = float64(unzigzag(u >> 1))
	}
	if c > 0 {
		r.Rest = make([]string, n*c)
		for x := range r.Rest {
			l, err := uv()
			if err != nil {
				return r, err
			}
			if l > uint64(len(b)-pos) {
				return r, errRecCode
			}
			r.Rest[x] = string(b[pos : pos+int(l)])
			pos += int(l)
		}
	}
	if pos != len(b) {
		return r, fmt.Errorf("%w: %d trailing bytes", errRecCode, len(b)-pos)
	}
	return r, nil
}
