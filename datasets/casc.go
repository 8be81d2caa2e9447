package datasets

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/sdcopt/sdcopt/model"
)

// cascFile describes one CASC benchmark file of the shared data directory;
// the SHA-256 values are those listed in its README.
type cascFile struct {
	file   string
	sha256 string
	n, d   int
}

var cascFiles = map[string]cascFile{
	"tarragona": {"tarragona.csv", "d5f719a134a3476b2157d9675d1a2b211dbc06ad6109685ad1e4b7847cfa45a4", 834, 13},
	"census":    {"census.csv", "40fb91564d4379274610e941161fd38729adb471bddb9c71d7c01ef142fd0f5b", 1080, 13},
	"eia":       {"eia.csv", "4384e99a2ee9c70a75700820e5e33d72df84d6b96afd28fda9a806de223150f4", 4092, 11},
}

// CASCNames lists the names LoadCASC accepts.
func CASCNames() []string { return []string{"tarragona", "census", "eia"} }

// IsCASC reports whether name (any case) names a CASC benchmark file.
func IsCASC(name string) bool {
	_, ok := cascFiles[strings.ToLower(name)]
	return ok
}

// LoadCASC returns the raw (unstandardized) records of the CASC data set
// tarragona, census or eia, read from SharedDir with its SHA-256 checked.
func LoadCASC(name string) (*model.Dataset, error) {
	t, err := LoadCASCTable(name, nil)
	if err != nil {
		return nil, err
	}
	return t.Data, nil
}

// LoadCASCTable is LoadCASC keeping the table (for writing a protected
// file), with cols selecting attributes by name (nil: all).
func LoadCASCTable(name string, cols []string) (*Table, error) {
	cf, ok := cascFiles[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("datasets: unknown CASC data set %q (want one of %s)", name, strings.Join(CASCNames(), ", "))
	}
	dir, err := SharedDir()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, cf.file)
	data, err := readVerified(path, cf.sha256)
	if err != nil {
		return nil, err
	}
	t, err := ReadCSV(bytes.NewReader(data), path, cols)
	if err != nil {
		return nil, err
	}
	if len(t.Rows) != cf.n || len(t.Header) != cf.d {
		// Cannot happen with the checksum verified; guards the table above.
		panic(fmt.Sprintf("datasets: %s is %d x %d, want %d x %d", path, len(t.Rows), len(t.Header), cf.n, cf.d))
	}
	return t, nil
}
