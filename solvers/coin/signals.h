// Declarations shared by signals.c and the cgo preamble of signals.go.

#define SDC_NSIG 2 /* SIGINT, SIGTERM */

void sdc_signal_begin(void);
int sdc_signal_end(void);
long sdc_signal_absorbed(void);
