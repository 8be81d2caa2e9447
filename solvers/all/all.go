// Package all links every solver backend into a program: import it for its
// side effect. Backends built without their build tag (lpsolve, coin)
// register themselves as unavailable and say why.
package all

import (
	_ "github.com/sdcopt/sdcopt/solvers/coin"
	_ "github.com/sdcopt/sdcopt/solvers/highs"
	_ "github.com/sdcopt/sdcopt/solvers/lpsolve"
)
