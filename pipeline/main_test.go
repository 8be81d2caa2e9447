package pipeline

import (
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

func TestMain(m *testing.M) {
	beam.Init()
	m.Run()
}
