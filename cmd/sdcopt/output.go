package main

import (
	"bytes"
	"io"

	"github.com/sdcopt/sdcopt/internal/cli"
)

// emit writes a command's result: to stdout, or with out set atomically to
// that file (a temporary file, then a rename). The result is rendered in
// full before anything is written, so a rendering error writes nothing.
func emit(stdout io.Writer, out string, write func(io.Writer) error) error {
	return emitPrivate(stdout, out, false, write)
}

// emitPrivate is emit; with private set, a new --out file is created with
// mode 0600 (it holds confidential data), not 0644.
func emitPrivate(stdout io.Writer, out string, private bool, write func(io.Writer) error) error {
	if out != "" {
		atomic := cli.WriteFileAtomic
		if private {
			atomic = cli.WritePrivateFileAtomic
		}
		if err := atomic(out, write); err != nil {
			return cli.BadInput("--out: %v", err)
		}
		return nil
	}
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return err
	}
	_, err := stdout.Write(buf.Bytes())
	return err
}

// checkFiles checks the outputs of a run against its inputs and each
// other (see cli.Files); inputs and outputs are flag, path pairs.
func checkFiles(inputs, outputs []string) error {
	var f cli.Files
	for i := 0; i+1 < len(inputs); i += 2 {
		f.Input(inputs[i], inputs[i+1])
	}
	for i := 0; i+1 < len(outputs); i += 2 {
		f.Output(outputs[i], outputs[i+1])
	}
	return f.Check()
}
