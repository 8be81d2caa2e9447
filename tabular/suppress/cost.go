package suppress

import (
	"fmt"
	"math"
	"strings"

	"github.com/sdcopt/sdcopt/tabular"
)

// CostRule says what suppressing a cell costs (tabular.Cell.Cost, the c_i
// of the model): the information lost, measured one of the usual ways.
type CostRule int

const (
	// CostValue: the cell's value, |a_i| (the builders' default: the
	// suppressed total is as small as possible).
	CostValue CostRule = iota
	// CostUnity: 1 per cell (as few suppressed cells as possible).
	CostUnity
	// CostFreq: the cell's number of contributors (tabular.Cell.Freq).
	CostFreq
	// CostLog: 1 + ln(1 + |a_i|), between unity and value: large cells
	// cost more, but not in proportion.
	CostLog
)

// ParseCostRule reads a rule's name: value, unity, freq or log.
func ParseCostRule(s string) (CostRule, error) {
	for r := CostValue; r <= CostLog; r++ {
		if strings.TrimSpace(s) == r.String() {
			return r, nil
		}
	}
	return 0, fmt.Errorf("%w: cost rule %q (want value, unity, freq or log)", ErrInput, s)
}

func (r CostRule) String() string {
	switch r {
	case CostValue:
		return "value"
	case CostUnity:
		return "unity"
	case CostFreq:
		return "freq"
	case CostLog:
		return "log"
	}
	return fmt.Sprintf("cost(%d)", int(r))
}

// Of returns the cost of suppressing c under rule r. An unknown rule
// panics (programmer error).
func (r CostRule) Of(c tabular.Cell) float64 {
	switch r {
	case CostValue:
		return math.Abs(c.Value)
	case CostUnity:
		return 1
	case CostFreq:
		return float64(c.Freq)
	case CostLog:
		return 1 + math.Log1p(math.Abs(c.Value))
	}
	panic(fmt.Sprintf("suppress: unknown cost rule %d", int(r)))
}

// SetCosts sets the Cost of every cell to its cost under r.
func SetCosts(cells []tabular.Cell, r CostRule) {
	for i := range cells {
		cells[i].Cost = r.Of(cells[i])
	}
}
