package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/sdcopt/sdcopt/internal/cli"
)

// The result of kanon and microagg, as sdcopt's commands give theirs:
// --format text (the default), json (one document, lower_snake_case
// keys) or csv (a header of the same keys and one row).

var resultFormats = []string{"text", "json", "csv"}

func checkResultFormat(format string) error { return cli.CheckFormat(format, resultFormats...) }

// writeResult writes doc, a struct whose exported fields carry json tags,
// in format; text writes the text report.
func writeResult(w io.Writer, format string, doc any, text func(io.Writer)) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(doc)
	case "csv":
		header, row := flatten(doc)
		cw := csv.NewWriter(w)
		cw.Write(header)
		cw.Write(row)
		cw.Flush()
		return cw.Error()
	}
	text(w)
	return nil
}

// flatten returns the JSON keys and values of a struct's fields, in
// field order: numbers and strings as JSON writes them (strings
// unquoted), lists joined by ';'; fields omitted from the JSON
// (omitempty, zero) are left out.
func flatten(doc any) (header, row []string) {
	v := reflect.Indirect(reflect.ValueOf(doc))
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "" || name == "-" {
			continue
		}
		fv := v.Field(i)
		if strings.Contains(opts, "omitempty") && fv.IsZero() {
			continue
		}
		header = append(header, name)
		row = append(row, cell(fv))
	}
	return header, row
}

func cell(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return ""
		}
		return cell(v.Elem())
	case reflect.String:
		return v.String()
	case reflect.Slice:
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = cell(v.Index(i))
		}
		return strings.Join(parts, ";")
	case reflect.Float32, reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	}
	b, err := json.Marshal(v.Interface())
	if err != nil {
		return fmt.Sprint(v.Interface())
	}
	return string(b)
}
