package solvers

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

func TestParamsValidate(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name  string
		p     *Params
		field string // "" when valid
	}{
		{"nil means defaults", nil, ""},
		{"zero value", &Params{}, ""},
		{"defaults", DefaultParams(), ""},
		{"largest values", &Params{TimeLimit: MaxTimeLimit, MIPRelGap: 1, MIPAbsGap: 1e300, FeasTol: 1e-3, Threads: MaxThreads}, ""},
		{"negative time limit", &Params{TimeLimit: -time.Second}, "TimeLimit"},
		{"time limit beyond 1e9 s", &Params{TimeLimit: MaxTimeLimit + time.Nanosecond}, "TimeLimit"},
		{"negative relative gap", &Params{MIPRelGap: -1e-6}, "MIPRelGap"},
		{"NaN relative gap", &Params{MIPRelGap: nan}, "MIPRelGap"},
		{"infinite relative gap", &Params{MIPRelGap: inf}, "MIPRelGap"},
		{"relative gap above 1", &Params{MIPRelGap: 1.5}, "MIPRelGap"},
		{"negative absolute gap", &Params{MIPAbsGap: -1}, "MIPAbsGap"},
		{"NaN absolute gap", &Params{MIPAbsGap: nan}, "MIPAbsGap"},
		{"infinite absolute gap", &Params{MIPAbsGap: inf}, "MIPAbsGap"},
		{"NaN feasibility tolerance", &Params{FeasTol: nan}, "FeasTol"},
		{"negative feasibility tolerance", &Params{FeasTol: -1e-7}, "FeasTol"},
		{"negative threads", &Params{Threads: -1}, "Threads"},
		{"too many threads", &Params{Threads: MaxThreads + 1}, "Threads"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.p.Validate()
			if c.field == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalidParams) {
				t.Fatalf("Validate() = %v, want an error wrapping ErrInvalidParams", err)
			}
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("Validate() = %T, want *Error", err)
			}
			// The message names the field and the accepted range.
			if msg := err.Error(); !strings.Contains(msg, c.field+" = ") || !strings.Contains(msg, "want ") {
				t.Errorf("message %q does not name %s and its range", msg, c.field)
			}
		})
	}
}

// TestParamsLimit: Limit is the smaller of TimeLimit and the time left
// before Deadline, at least MinDeadlineLimit once the deadline passed.
func TestParamsLimit(t *testing.T) {
	now := time.Now()
	cases := []struct {
		name     string
		p        *Params
		min, max time.Duration
	}{
		{"nil", nil, 0, 0},
		{"none", &Params{}, 0, 0},
		{"time limit", &Params{TimeLimit: 3 * time.Second}, 3 * time.Second, 3 * time.Second},
		{"deadline nearer", &Params{TimeLimit: time.Hour, Deadline: now.Add(2 * time.Second)}, time.Second, 2 * time.Second},
		{"limit nearer", &Params{TimeLimit: time.Second, Deadline: now.Add(time.Hour)}, time.Second, time.Second},
		{"deadline only", &Params{Deadline: now.Add(time.Minute)}, 50 * time.Second, time.Minute},
		{"passed", &Params{TimeLimit: time.Hour, Deadline: now.Add(-time.Minute)}, MinDeadlineLimit, MinDeadlineLimit},
	}
	for _, c := range cases {
		if got := c.p.Limit(); got < c.min || got > c.max {
			t.Errorf("%s: Limit() = %v, want in [%v, %v]", c.name, got, c.min, c.max)
		}
	}
}
