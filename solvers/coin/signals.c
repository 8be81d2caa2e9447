//go:build cgo && coin

// Signal handling around engine calls (see the Signals section of doc.go).
//
// CLP's ClpSimplex::initialSolve, which Clp_initialSolveWithOptions runs and
// which CBC's driver runs for its root LP, installs its own SIGINT handler
// with signal(3) and later re-installs the previous one with signal(3).
// signal(3) sets the flags to SA_RESTART only, so the Go runtime's handler
// comes back without SA_ONSTACK and SA_SIGINFO, and the next SIGINT that
// lands on a thread running Go code kills the process ("non-Go code set up
// signal handler without SA_ONSTACK flag"). While CLP's own handler is
// installed, a SIGINT only makes CLP stop its current LP: the Go program
// never sees it.
//
// The fix has two parts:
//
//   - sdc_signal_begin/sdc_signal_end bracket every engine call: they save
//     the sigaction of SIGINT and SIGTERM before and restore it exactly
//     afterwards when it changed.
//   - signal() below interposes the C library's signal(3) for the process
//     (an executable's definition takes precedence over libc's for the
//     engine libraries, which import signal dynamically). While an engine
//     call is in progress, a signal(SIGINT or SIGTERM, h) is recorded
//     instead of installed: the engine sees the usual return values, the
//     Go runtime's handler stays installed with its flags, and a SIGINT or
//     SIGTERM reaches os/signal at once. At any other time, and for every
//     other signal, the call goes to the C library unchanged.

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "signals.h"

typedef void (*sdc_handler_t)(int);

static const int sdc_sigs[SDC_NSIG] = {SIGINT, SIGTERM};

// sdc_active is 1 between sdc_signal_begin and sdc_signal_end. The Go side
// serializes begin/end and counts nested engine calls.
static int sdc_active;
static struct sigaction sdc_saved[SDC_NSIG];
// sdc_virtual holds, per signal, the handler an engine believes installed.
static sdc_handler_t sdc_virtual[SDC_NSIG];
static long sdc_absorbed;

static int sdc_index(int sig) {
	for (int k = 0; k < SDC_NSIG; k++) {
		if (sdc_sigs[k] == sig) {
			return k;
		}
	}
	return -1;
}

static sdc_handler_t sdc_libc_signal(int sig, sdc_handler_t h) {
	static sdc_handler_t (*next)(int, sdc_handler_t);
	sdc_handler_t (*f)(int, sdc_handler_t) = __atomic_load_n(&next, __ATOMIC_ACQUIRE);
	if (f == NULL) {
		f = (sdc_handler_t(*)(int, sdc_handler_t))dlsym(RTLD_NEXT, "signal");
		if (f == NULL) {
			errno = ENOSYS;
			return SIG_ERR;
		}
		__atomic_store_n(&next, f, __ATOMIC_RELEASE);
	}
	return f(sig, h);
}

sdc_handler_t signal(int sig, sdc_handler_t h) {
	int k = sdc_index(sig);
	if (k < 0 || !__atomic_load_n(&sdc_active, __ATOMIC_ACQUIRE)) {
		return sdc_libc_signal(sig, h);
	}
	if (h == SIG_ERR) {
		errno = EINVAL;
		return SIG_ERR;
	}
	__atomic_add_fetch(&sdc_absorbed, 1, __ATOMIC_RELAXED);
	return __atomic_exchange_n(&sdc_virtual[k], h, __ATOMIC_ACQ_REL);
}

static int sdc_get(int sig, struct sigaction *a) {
	memset(a, 0, sizeof *a);
	return sigaction(sig, NULL, a);
}

// sdc_same compares handler, flags and mask. The mask is compared signal by
// signal: the C library's sigset_t is larger than the kernel's, and what
// sigaction(2) returns beyond the kernel's part is unspecified.
static int sdc_same(const struct sigaction *a, const struct sigaction *b) {
	if (a->sa_sigaction != b->sa_sigaction || a->sa_flags != b->sa_flags) {
		return 0;
	}
	for (int s = 1; s < NSIG; s++) {
		if (sigismember(&a->sa_mask, s) != sigismember(&b->sa_mask, s)) {
			return 0;
		}
	}
	return 1;
}

void sdc_signal_begin(void) {
	for (int k = 0; k < SDC_NSIG; k++) {
		sdc_get(sdc_sigs[k], &sdc_saved[k]);
		sdc_handler_t h = (sdc_saved[k].sa_flags & SA_SIGINFO) ? (sdc_handler_t)sdc_saved[k].sa_sigaction
		                                                      : sdc_saved[k].sa_handler;
		__atomic_store_n(&sdc_virtual[k], h, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&sdc_active, 1, __ATOMIC_RELEASE);
}

int sdc_signal_end(void) {
	__atomic_store_n(&sdc_active, 0, __ATOMIC_RELEASE);
	int restored = 0;
	for (int k = 0; k < SDC_NSIG; k++) {
		struct sigaction cur;
		if (sdc_get(sdc_sigs[k], &cur) == 0 && !sdc_same(&cur, &sdc_saved[k])) {
			sigaction(sdc_sigs[k], &sdc_saved[k], NULL);
			restored |= 1 << k;
		}
	}
	return restored;
}

long sdc_signal_absorbed(void) { return __atomic_load_n(&sdc_absorbed, __ATOMIC_RELAXED); }
