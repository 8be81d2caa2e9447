package tabular

import "os"

// LoadHRC reads the τ-ARGUS hierarchy file at path; see ReadHRC.
func LoadHRC(path string, s *HRCSettings) (*Hierarchy, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadHRC(f, path, s)
}

// LoadParentChild reads the parent/child CSV file at path; see
// ReadParentChild.
func LoadParentChild(path string, s *PCSettings) (*Hierarchy, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadParentChild(f, path, s)
}

// LoadTableFile reads the table file at path; see ReadTableFile.
func LoadTableFile(path string, dims []Dimension, s *TableFileSettings) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadTableFile(f, path, dims, s)
}
