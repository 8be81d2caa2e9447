package audit

// WithoutFirstMoves returns opt with the local moves before the search and
// the bounds turned off: every checked cell the view leaves open goes to
// the neighbourhood search (where it runs) and the bounds, so that tests
// on small tables reach them.
func WithoutFirstMoves(opt Options) Options {
	opt.noFirstMoves = true
	return opt
}
