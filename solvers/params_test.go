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
