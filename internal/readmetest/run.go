package readmetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// DefaultAddr is the address the README's service examples use; Runner
// replaces it by Addr.
const DefaultAddr = "127.0.0.1:8080"

// optionalTools are commands outside sdcopt that some blocks use and a
// machine may lack; such a block is skipped, saying so.
var optionalTools = []string{"curl"}

// Runner runs blocks in one working directory, in order.
type Runner struct {
	Dir  string   // working directory of every block
	Env  []string // environment of every block (PATH with the binaries first)
	Addr string   // replaces DefaultAddr in every block ("" = keep it)

	Short    bool // testing.Short(): long blocks are skipped
	Slow     bool // SDCOPT_README_SLOW=1: slow blocks run
	HaveData bool // the shared benchmark data are reachable
	// Pipeline makes sdcopt-pipeline available on the PATH of Env; it is
	// called before the first block that needs it (nil: such blocks are
	// skipped).
	Pipeline func() error

	Timeout     time.Duration // per block (0 = 2 minutes)
	SlowTimeout time.Duration // per slow block (0 = 30 minutes)

	pipelineErr  error
	pipelineDone bool
	bg           []*background
}

// background is a server started by a background block.
type background struct {
	block Block
	cmd   *exec.Cmd
	out   *bytes.Buffer
	done  chan error
}

// Code returns a block's commands as the runner runs them.
func (r *Runner) Code(b Block) string {
	if r.Addr == "" {
		return b.Code
	}
	return strings.ReplaceAll(b.Code, DefaultAddr, r.Addr)
}

// Run runs one block. It returns a non-empty reason when the block is not
// run, and an error naming the block's file and line when it fails.
func (r *Runner) Run(b Block) (skipped string, err error) {
	switch {
	case b.Skip != "":
		return "skip: " + b.Skip, nil
	case b.Slow != "" && !r.Slow:
		return "slow (set SDCOPT_README_SLOW=1 to run it): " + b.Slow, nil
	case b.Long && r.Short:
		return "long: runs without -short", nil
	case b.Data && !r.HaveData:
		return "needs the shared benchmark data (../shared/datasets), which are absent", nil
	}
	for _, tool := range optionalTools {
		if strings.Contains(b.Code, tool+" ") {
			if _, err := exec.LookPath(tool); err != nil {
				return "needs " + tool + ", which is not installed", nil
			}
		}
	}
	if b.Pipeline {
		if r.Pipeline == nil {
			return "needs sdcopt-pipeline, which this run does not build", nil
		}
		if !r.pipelineDone {
			r.pipelineErr, r.pipelineDone = r.Pipeline(), true
		}
		if r.pipelineErr != nil {
			return "", fmt.Errorf("%s:%d: building sdcopt-pipeline: %v", b.File, b.Line, r.pipelineErr)
		}
	}
	if b.Background != "" {
		return "", r.start(b)
	}
	timeout := r.Timeout
	if timeout == 0 {
		timeout = 2 * time.Minute
	}
	if b.Slow != "" {
		timeout = r.SlowTimeout
		if timeout == 0 {
			timeout = 30 * time.Minute
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := r.command(ctx, b)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err = cmd.Run()
	if ctx.Err() != nil {
		return "", fmt.Errorf("%s:%d: timed out after %v:\n%s\noutput:\n%s", b.File, b.Line, timeout, r.Code(b), tail(out.String()))
	}
	if err != nil {
		return "", fmt.Errorf("%s:%d: %v after %.1f s:\n%s\noutput:\n%s", b.File, b.Line, err, time.Since(start).Seconds(), r.Code(b), tail(out.String()))
	}
	for _, want := range b.Prints {
		if !strings.Contains(out.String(), want) {
			return "", fmt.Errorf("%s:%d: the output does not contain %q:\n%s\noutput:\n%s", b.File, b.Line, want, r.Code(b), tail(out.String()))
		}
	}
	for _, f := range b.Creates {
		st, err := os.Stat(filepath.Join(r.Dir, f))
		switch {
		case err != nil:
			return "", fmt.Errorf("%s:%d: the block should create %s: %v\n%s", b.File, b.Line, f, err, r.Code(b))
		case st.Size() == 0:
			return "", fmt.Errorf("%s:%d: the block left %s empty\n%s", b.File, b.Line, f, r.Code(b))
		}
	}
	return "", nil
}

// command returns bash running a block's code in its own process group.
func (r *Runner) command(ctx context.Context, b Block) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "bash", "-e", "-o", "pipefail", "-c", r.Code(b))
	cmd.Dir = r.Dir
	cmd.Env = r.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// start starts a background block and waits until its address accepts
// connections (30 s at most).
func (r *Runner) start(b Block) error {
	addr := b.Background
	if r.Addr != "" {
		addr = strings.ReplaceAll(addr, DefaultAddr, r.Addr)
	}
	cmd := r.command(context.Background(), b)
	out := &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s:%d: %v", b.File, b.Line, err)
	}
	bg := &background{block: b, cmd: cmd, out: out, done: make(chan error, 1)}
	go func() { bg.done <- cmd.Wait() }()
	r.bg = append(r.bg, bg)
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case err := <-bg.done:
			bg.done <- err
			return fmt.Errorf("%s:%d: the server exited before accepting connections on %s (%v):\n%s\noutput:\n%s", b.File, b.Line, addr, err, r.Code(b), tail(out.String()))
		default:
		}
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s:%d: nothing accepts connections on %s after 30 s:\n%s\noutput:\n%s", b.File, b.Line, addr, r.Code(b), tail(out.String()))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Stop stops the background servers with SIGTERM (SIGKILL after 10 s).
// It returns an error when one had exited before, or did not exit 0 (or
// by the signal) when stopped.
func (r *Runner) Stop() error {
	var errs []error
	for _, bg := range r.bg {
		select {
		case err := <-bg.done:
			errs = append(errs, fmt.Errorf("%s:%d: the server exited before the last block (%v):\n%s", bg.block.File, bg.block.Line, err, tail(bg.out.String())))
			continue
		default:
		}
		_ = syscall.Kill(-bg.cmd.Process.Pid, syscall.SIGTERM)
		var err error
		select {
		case err = <-bg.done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-bg.cmd.Process.Pid, syscall.SIGKILL)
			err = <-bg.done
			errs = append(errs, fmt.Errorf("%s:%d: the server did not stop within 10 s of SIGTERM:\n%s", bg.block.File, bg.block.Line, tail(bg.out.String())))
			continue
		}
		// bash may have run the server as its own child (exit 143 after
		// the signal) or replaced itself by it (exit 0 on SIGTERM).
		if err != nil && !stoppedByTerm(err) {
			errs = append(errs, fmt.Errorf("%s:%d: the server ended with %v on SIGTERM:\n%s", bg.block.File, bg.block.Line, err, tail(bg.out.String())))
		}
	}
	r.bg = nil
	return errors.Join(errs...)
}

// stoppedByTerm reports whether a process ended by SIGTERM: killed by it,
// or exiting 143 (a shell whose child was).
func stoppedByTerm(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGTERM {
		return true
	}
	return ee.ExitCode() == 143
}

// tail returns the last 4,000 bytes of a command's output.
func tail(s string) string {
	const max = 4000
	if len(s) > max {
		return "...\n" + s[len(s)-max:]
	}
	return s
}
