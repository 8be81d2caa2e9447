// Package primary finds the primary sensitive cells of a table as
// statistical offices do before publishing it: the sensitivity rules of
// tabular data protection and the protection levels that secondary
// protection (cell suppression, cell bounds) must then guarantee. The
// source is Hundepool, Domingo-Ferrer, Franconi, Giessing, Schulte
// Nordholt, Spicer and de Wolf, Statistical Disclosure Control (Wiley
// 2012), chapter 4, as read in its online successor, the Handbook on
// Statistical Disclosure Control (sdcTools.github.io/HandbookSDC, chapter
// 4 "Magnitude tabular data", section "Disclosure control concepts for
// magnitude tabular data"): the table "Sensitivity rules" and the
// subsections on the (p,q) rule, requests and holdings of "Sensitive cells
// in magnitude tables", and the table "Upper protection levels" with
// Examples 4 and 5 of "Secondary tabular data protection methods". We
// cite by section and table name; page numbers of the printed book were
// not available to us. τ-ARGUS is the software that implements that
// chapter; its manual was not available to us either, so where we say
// what τ-ARGUS does it is as the Handbook reports it.
//
// The package works on its own small input, Cell: the cell total X, the
// number of contributors, the largest contributions x1 ≥ x2 ≥ … (and the
// same aggregated by holding), and whether a respondent asked for
// protection. It does not import the table model.
//
// # The rules
//
// Contributions are non-negative. For a cell with total X, F contributors
// and largest contributions x1 ≥ x2 ≥ … (missing ones are 0), with
// S_n = x1 + … + xn and the remainder R = X − x1 − x2:
//
//   - Minimum frequency, freq(n): sensitive when 0 < F < n ("the cell
//     frequency is less than n", the common choice n = 3). A cell with
//     exactly n contributors is safe (sdcTable's maxN is n − 1).
//   - Dominance, nk(n,k): sensitive when S_n > k/100 · X: the n largest
//     contributors together make more than k % of the cell.
//   - p % rule, p(p): sensitive when R < p/100 · x1. The second largest
//     contributor subtracts its own value from X and obtains X − x2 =
//     x1 + R ≥ x1, an upper estimate of x1; the cell is sensitive when that
//     estimate is within p % of x1.
//   - pq rule, pq(p,q): the remainder R is known to within q % before
//     publication, so the second contributor can subtract an estimate of
//     R too; sensitive when R < p/q · x1, i.e. q/100 · R < p/100 · x1: the
//     p % rule with p* = 100·p/q (and p(p) = pq(p,100)). We require
//     p ≤ q ≤ 100.
//
// The inequalities are strict, as in the sources: a cell exactly at the
// threshold (S_n = k/100·X, R = p/100·x1) is safe. They are evaluated in
// the form 100·S_n > k·X, 100·R < p·x1, q·R < p·x1, which is exact on
// integral data, so the boundary does not depend on how p/100 rounds.
//
// A cell with a single contributor and a positive value is sensitive
// under every p, pq and nk(n,k) with k < 100 (R = 0 and S_n = X); one
// whose only contribution is 0 is not (0 < 0 fails), which only the
// frequency rule catches.
//
// # Protection levels
//
// A sensitive cell must be published, or suppressed, so that the interval
// [X − L, X + U] an intruder can derive for it is wide enough for the rule
// to hold at its ends: U is the upper, L the lower protection level. For
// the concentration rules U is the amount by which the intruder's upper
// bound must exceed X (the Handbook's table "Upper protection levels"):
//
//   - nk(n,k): the rule holds at X' when S_n ≤ k/100 · X', so
//     U = 100/k · S_n − X.
//   - p(p): at X + U the estimate X + U − x2 errs by U + R; it must be at
//     least p/100 · x1, so U = p/100 · x1 − R (the Handbook's Example 5).
//   - pq(p,q): U = p/q · x1 − R, the Handbook's level, which is the p*
//     rule's: at X + U the estimate X + U − x2 errs by exactly p*/100 · x1.
//     An intruder who also subtracts the prior estimate (1 − q/100)·R of
//     the remainder errs by U + q/100 · R at X + U, so the least level
//     against that intruder would be p/100 · x1 − q/100 · R = q/100 times
//     the Handbook's; the Handbook's is larger when positive (q ≤ 100) and
//     we follow it. Both reduce to the p % level at q = 100.
//
// In each case the cell is sensitive exactly when U > 0; on a safe cell the
// formula is ≤ 0 (the margin by which it is safe), and Level reports it as
// it is. The property tests check both statements, and that the rule holds
// with equality at X + U on sensitive cells.
//
// The attacker model gives no lower level of its own: the intruder's
// estimate of x1 is an upper one. The Handbook: "out of symmetry
// considerations the lower protection level is often set identical to the
// upper protection level". We do so, and cap L at X (our addition: a
// non-negative cell is known to be ≥ 0, so no interval can reach further
// below, and asking for more would make the secondary problem
// infeasible).
//
// The minimum frequency rule, requests and protected zero cells have no
// formula: their level is the safety range (SafetyRange), the larger of an
// absolute amount and a percentage of |X|, symmetric (τ-ARGUS's "minimum
// frequency range" and its manual safety range). The default is 10 %. The
// Handbook recommends a level of 0 when only a minimum frequency rule is
// used (it prevents exact disclosure only): give Settings.Safety =
// &SafetyRange{} or "safety:0%".
//
// Sliding protection (τ-ARGUS's "sliding protection level", a required
// width of the interval however it is placed around X) is set by no rule
// here; a cell's Sliding (from a table or JJ file) is checked by the
// audit, intervals.AuditProtection.
//
// # Rule sets, holdings, requests and zero cells
//
// A RuleSet applies several rules to a cell (NewRuleSet validates the
// parameters once and returns ErrParam errors; Parse reads a command-line
// specification such as "freq:3,p:15,nk:1:85,pq:15:50,zero:protect,safety:10%").
// A cell is primary when any rule fires; Result names the rules that fired
// ("freq(3)", "p(15)", "nk(1,85)", "pq(15,50)", "request", "zero") and
// carries the most demanding levels over them, the maximum upper and the
// maximum lower level.
//
// Holdings: when a cell carries HoldingTop (contributions summed per
// enterprise group), every rule is applied again to those, with the number
// of holdings for the frequency rule when it is known, and fires as
// "holding:p(15)" and so on. The cell is primary when either level says
// so. On consistent data the holding level is the more demanding one (a
// holding's contribution is at least its largest member's, so S_n, x1 and
// x1 + x2 can only grow and R only shrink when contributions are merged),
// and "either" equals "holding"; applying both guards against holding
// data that are incomplete (a holding list covering only some of the
// contributors). The Handbook's section "Holdings" asks for the grouped
// contributions only; τ-ARGUS, we understand, lets the holding level have
// rules of its own; here both levels share the set's rules.
//
// Requests: a cell with Requested set is primary by rule "request", with
// the safety range, whatever its frequency. Package tabular sets it when
// one of the cell's two largest contributors asked for protection (the
// microdata's request column; τ-ARGUS's request rule looks at the two
// largest). The rule has no threshold of its own: a requesting top
// contributor makes the cell primary whatever its share.
//
// Zero cells: an empty cell (F = 0) is never primary under the rules. With
// Settings.Zero = ZeroProtect it is primary by rule "zero", with the safety
// range (whose percentage part is 0 on X = 0: give an absolute range). A
// cell with contributors and total 0 is not a zero cell; the rules apply
// to it as to any other.
//
// # Errors and panics
//
// Bad parameters and specifications are user input: Rule.Validate,
// NewRuleSet and Parse return errors wrapping ErrParam and ErrSpec, naming
// the rule or the item, and never panic. A malformed Cell (Top not sorted
// non-increasingly, negative contributions or frequency, fewer
// contributions than the rules need) is a programmer error of the code
// that built it: Apply panics on it, and Cell.Check reports the same as an
// error wrapping ErrCell. The functions of one rule (MinFrequency,
// Dominance, PPercent, PQ) panic on out-of-range parameters: validate
// them first.
package primary
