package sigtest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ChildEnv is the environment variable that makes a test binary run as a
// stress child (see RunChild).
const ChildEnv = "SDCOPT_SIGTEST_CHILD"

// Lines the child prints on stdout.
const (
	readyLine    = "ready"
	receivedLine = "received SIGINT"
)

// childDeadline bounds a child that never sees its signal; exitNoSignal is
// its exit status then.
const (
	childDeadline = 20 * time.Second
	exitNoSignal  = 3
)

// IsChild reports whether this process is a stress child.
func IsChild() bool { return os.Getenv(ChildEnv) == "1" }

func init() {
	if IsChild() {
		// Keep the main goroutine on the main thread, which the kernel
		// prefers for process-directed signals: RunChild then keeps Go
		// code running exactly where SIGINT lands, the case in which a
		// handler without SA_ONSTACK is fatal.
		runtime.LockOSThread()
	}
}

// RunChild is the main of a stress child; call it from TestMain when
// IsChild() reports true, before m.Run. It asks os/signal for SIGINT,
// starts each of loops in its own goroutine (each calls its solve
// function over and over), prints "ready" once every loop has completed
// one call, and then runs Go code on the main thread until SIGINT arrives:
// it prints "received SIGINT" and exits 0. A child that sees no signal
// within 20 s exits 3. It never returns.
func RunChild(loops ...func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGINT)
	started := make(chan struct{}, len(loops))
	for _, solve := range loops {
		go func() {
			solve()
			started <- struct{}{}
			for {
				solve()
			}
		}()
	}
	for range loops {
		<-started
	}
	fmt.Fprintln(os.Stdout, readyLine)
	deadline := time.Now().Add(childDeadline)
	for {
		select {
		case <-ch:
			fmt.Fprintln(os.Stdout, receivedLine)
			os.Exit(0)
		default:
		}
		busy()
		if time.Now().After(deadline) {
			fmt.Fprintf(os.Stdout, "no SIGINT within %v\n", childDeadline)
			os.Exit(exitNoSignal)
		}
	}
}

// busySink keeps busy's work observable.
var busySink uint64

// busy runs a little Go code: xorshift steps.
func busy() {
	x := busySink | 1
	for i := 0; i < 1000; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	busySink = x
}

// Stress runs the current test binary as a stress child once per delay:
// it waits for the child's "ready", sleeps for the delay, sends SIGINT and
// requires that the child reports the signal through os/signal and exits
// 0, without a runtime fatal error. The child must call RunChild from its
// TestMain.
func Stress(t *testing.T, delays []time.Duration) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range delays {
		if err := runChild(exe, d); err != nil {
			t.Errorf("run %d (SIGINT %v after ready): %v", i, d, err)
		}
	}
}

func runChild(exe string, delay time.Duration) error {
	// The parent's own bound, beyond the child's deadline.
	ctx, cancel := context.WithTimeout(context.Background(), childDeadline+10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), ChildEnv+"=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	lines := bufio.NewScanner(out)
	ready := false
	for lines.Scan() {
		if lines.Text() == readyLine {
			ready = true
			break
		}
	}
	if ready {
		time.Sleep(delay)
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			return err
		}
	}
	var rest strings.Builder
	for lines.Scan() {
		rest.WriteString(lines.Text())
		rest.WriteByte('\n')
	}
	io.Copy(io.Discard, out)
	werr := cmd.Wait()
	tail := stderr.String()
	if len(tail) > 2000 {
		tail = tail[:2000] + "..."
	}
	switch {
	case strings.Contains(stderr.String(), "fatal error"):
		return fmt.Errorf("child crashed: %v\nstderr:\n%s", werr, tail)
	case !ready:
		return fmt.Errorf("child never became ready: %v\nstderr:\n%s", werr, tail)
	case werr != nil:
		var ee *exec.ExitError
		if errors.As(werr, &ee) && ee.ExitCode() == exitNoSignal {
			return fmt.Errorf("os/signal never delivered SIGINT: %s", strings.TrimSpace(rest.String()))
		}
		return fmt.Errorf("child failed: %v\nstdout: %s\nstderr:\n%s", werr, rest.String(), tail)
	case !strings.Contains(rest.String(), receivedLine):
		return fmt.Errorf("child exited 0 without reporting SIGINT; stdout: %q", rest.String())
	}
	return nil
}
