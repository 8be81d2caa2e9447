// Package audit is the decision engine of a query system over a
// confidential contingency table (Dobra & Fienberg, "Bounds for cell
// entries in contingency tables induced by fixed marginal totals",
// Sections 1-2): users request marginal tables one after another, what has
// been released is public and cumulative, and each new request is examined
// together with every release before it and answered by
//
//   - release: the true margin is published;
//   - deny: nothing is published, and the public answer says nothing about
//     why (a reason would leak which cells are at risk);
//   - simulate: a table consistent with every margin released so far is
//     drawn at random (seeded) and the requested margin of that table is
//     published, recorded as simulated. The simulated answer depends only
//     on the released margins (their values as published, true or
//     simulated), the request and the seed: two confidential tables with
//     the same releases give the same simulated answer. With nothing
//     released not even the total is public, so a denied first request is
//     denied in simulate mode too (Simulate refuses an empty view,
//     ErrNothingReleased).
//
// The decision rests on the sharp integer bounds of every cell given the
// public view (every released margin with the values released, true or
// simulated, as an intruder sees them) plus the requested margin
// (cellbounds, method auto), checked against a Policy. Where the bounds are
// not proven sharp (tables too large for the exact methods within the time
// limit) the certified method's evidence is used conservatively: a cell is
// safe only when integer tables attaining a wide enough interval exist,
// disclosed when its proven interval is too narrow, and otherwise
// undecided, which denies.
//
// When every margin of the view is true and the view is not decomposable,
// a decision on a full table (not the collapsed tables of microdata) is
// made before any bound: local moves from the confidential
// table, then integer programs over each open cell's neighbourhood (the
// table with only the cells near it free: every solution is a table with
// the view's margins), then integer programs over the whole table, whose
// optimum proves a cell too narrow (search.go). Only the cells these leave
// open go to the bounds.
//
// Entry points: New builds an Auditor over a table and a policy;
// Auditor.Decide decides one request given a History; History.Append
// records a decision; Decision.Public is what a requester may see;
// ReadHistory and WriteHistory (the JSON of `sdcopt audit --history`)
// store the record; Simulate draws a table consistent with a public view.
//
// Microdata: NewMicrodata builds an Auditor over categorical records
// (datasets.Microdata) whose full cross-classification is never built:
// each decision works on the variables W of the history and the request,
// splits the margins at clique separators whose margins are known (Dobra
// & Fienberg, Theorem 2; connected components are the empty separator),
// collapses the records to each piece's table and maps the policy of the
// full cells onto the pieces' cells; only margins that do not split are
// decided on the table over all of W (microdata.go and separators.go
// derive why this is exact). Evidence
// (evidence.go) counts the cells of a decision by what decided them,
// including local moves in the kernel of the margin system.
//
// Incremental work: a request whose margin is implied by a true release
// (e.g. [AB] after [ABC]) is answered from that release without any
// computation; the bounds of every public view are cached, and the bounds
// of the history alone are the shuttle's starting point for history plus
// request (adding margins only narrows the bounds).
//
// Errors: ErrHistory for a history that does not fit the table or itself
// (no table has all its released margins); ErrRequest for a request naming
// unknown variables or no variable; Policy.Validate for a bad policy.
package audit
