// Package bench reproduces the tables of the papers sdcopt follows, as a
// library: the published numbers (transcribed with reading notes where
// the text extraction of a paper is garbled), the instance grids, the
// runners, and typed results — one struct per row with the instance, the
// method, the engine, the measures, the seconds and the published value —
// that render as text (WriteText), CSV (WriteCSV over Tables) and JSON
// (encoding/json, lower_snake_case keys with "method" and "seconds"), and
// draw their figures with gonum.org/v1/plot (Figures, SaveFigures) in
// one house style (figstyle.go).
//
// Runners (each takes an options struct; nil means its Default…Options):
//
//   - MDAV: MDAV's information loss IL = 100·SSE/SST on the CASC sets
//     Tarragona, Census and EIA at k = 3, 4, 5, 10, beside Mortazavi &
//     Jalili, "A Novel Local Search Method for Microaggregation", Table 2
//     (IL_MDAV).
//   - ICSM: the ICSM local search beside the same paper's Table 2 (one run
//     from MDAV; Sim-1..3 averaged over 25 generated data sets; Synthetic
//     with 20 and 400 rounds) and Table 4 (best over restarts, beside ICSM
//     and LS).
//   - Colgen: column generation on subsets of Census and Tarragona beside
//     Gentile, Spagnolo-Arrizabalaga & Castro, Tables 3 and 4: the gaps of
//     formula (15), 100·(SSE_H − LB)/SSE_H, of MDAV, V-MDAV, the rounding
//     heuristics and π*, per (n, k, extraction criterion).
//   - Dobra: Dobra & Fienberg, "Bounds for cell entries in contingency
//     tables induced by fixed marginal totals", Tables 2-5 on the Czech
//     autoworkers table: our sharp bounds beside the LP, IP, shuttle and
//     published bounds, every difference explained.
//   - MicroaggTradeoff: information loss against disclosure risk of every
//     microaggregation method at every k on the CASC sets (package risk:
//     distance-based record linkage after Domingo-Ferrer & Torra, interval
//     disclosure as sdcMicro's dRisk since 5.6.0), with a lower bound on the optimal
//     IL from the column generation.
//   - Kanon: freeform k-anonymity after Doka et al., Sections 8-9, on UCI
//     Adult: GCP, time and the publication's re-identification and
//     linkage risk vs k per method, the exact MIP against the heuristics
//     on small samples, SortGreedy's time vs n, GCP and time vs the
//     partition size.
//   - Scaling: time vs n for MDAV, ICSM and SortGreedy with the exponent
//     of a least-squares fit on log-log axes (gonum/stat).
//
// The data of the papers live outside the module (datasets.SharedDir);
// runners that need them return datasets.ErrNoSharedData when they are
// absent. Bad options return a *SettingsError (wrapping ErrSettings)
// naming the option as the command line's flag does; a result that fails
// the runner's own verification wraps ErrCheck. Progress goes to an
// optional Progress.
package bench
