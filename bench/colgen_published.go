package bench

// Published results of the column generation heuristic for microaggregation:
// Gentile, Spagnolo-Arrizabalaga & Castro, "MicroaggregationHeuristicMP",
// Section 6, Table 3 ("Census" data set) and Table 4 ("Tarragona" data set).
// Each row averages 5 instances extracted from the CASC data set with one of
// four criteria (consecutive, random, ordered by L2 norm, ordered by L2
// distance from the overall centroid). Gaps are formula (15):
// GAP_H = 100 (SSE_H - SSE_MP) / SSE_H, in percent.
//
// Reading notes. Our copy of the paper is a text extraction of the tables
// and is garbled in places. Every row below was reconstructed from it; the
// rows within an (n,k) block are always cons, rand, l2n, l2d, so the
// criterion of a row is taken from its position, never from the garbled
// label ("Lan", "Lon", "I and", "Ianu" = L_2n; "Lac", "Loc", "L2C", "120",
// "L'2C" = L_2c; Table 3 prints L_2d and Table 4 L_2c for the same
// criterion, both are "l2d" here). A blank Ex cell is 0. Raw lines are
// quoted with tabs shown as " | ".
//
// Unambiguous repairs (high confidence):
//   - Table 3, 50/3 rand MSTH "4.7" and 50/5 l2d MSTH/SRH "4.2", "4.2" are
//     read 4.70 and 4.20 (trailing zero dropped; the other cells print 2
//     decimals).
//   - Table 4, 100/3 l2n "Lan | 13.0 | 12.5 | 1 30 | 1 30 | 2.40": 1.30, 1.30.
//   - Table 4, 50/4 l2n SRH "1 11" is 1.11; 50/4 l2d is printed with k "1"
//     ("50 | 1 | Lac | 22.3 | 20.7 | 3.05 | 4.06 | 1 78"): k=4, time 1.78.
//   - Table 4, 50/5 l2n MSTH "2.2" is read 2.20 (a digit may be lost).
//   - Table 4, 50/5 l2d Ex is printed "-": read 0.
//   - Table 4, 100/4: the labels read cons, rand, "I and", "L2n"; by position
//     and by values (MDAV 12.2 is L2n-like, 21.9 L2c-like) they are l2n, l2d.
//
// Stray and duplicated lines (moderate confidence):
//   - Table 3 has the line " | 4 | 2 | 17.0 | 15.1 | 0.50 | 0.00 | 0.10"
//     (no n, label "2", no Ex) just before the well-formed 30/4 block. It is
//     a degraded copy of the next line "30 | 4 | cons | 17.3 | 15.1 | 8.50 |
//     9.80 | 0.13" (same V-MDAV; digits turned to 0) and is dropped. We keep
//     17.3, 8.50, 9.80, 0.13; the stray line disagrees on MDAV (17.0), MSTH
//     (0.50), SRH (0.00) and time (0.10).
//   - Table 4, 100/3 has five lines; the last two are both the L_2c row
//     (same MSTH = SRH = 1.11):
//     "100 | 3 | Lac | 24.3 | 19.0 | 1 11 | 1 11 | 2.00" and
//     "100 | 3 | 120 | 24.5 | 15.0 | 1.11 | 1.11 | 2.30".
//     We keep the first (24.3, 19.0, 1.11, 1.11, 2.00): its V-MDAV/MDAV
//     ratio (0.78) is typical of Table 4's l2d rows (0.65 to 1.09), the
//     other's (0.61) is not, and the second line carries the numeric label
//     ("120") of the other stray lines. Against it: its time 2.00 is 17%
//     below the block's other times (2.36, 2.48, 2.40), 2.30 would fit
//     better. MDAV (24.3 or 24.5), V-MDAV (19.0 or 15.0) and time (2.00 or
//     2.30) of this row are uncertain.
//
// Table 4, n=200 (low confidence; listed in ColgenPublishedDoubtful). The
// 200/4 and 200/5 blocks have five lines each, with labels that do not
// follow the row order:
//
//	200 | 4 | 1.20 | 21.0 | 10.8 | 2.47 | 7.01  | 101.44   (A)
//	200 | 4 | rond | 5.5  | 1.0  | 1.11 | 1.95  | 101.44   (B)
//	200 | 4 | Ianu | 1.5  | 1.5  | 2.08 | 12.00 | 108.70   (C)
//	200 | 4 | L2n  | 24.2 | 10.1 | 3.98 | 13.62 | 105 14   (D)
//	200 | 4 | L2C  | 24.3 | 23.0 | 5.94 | 17.55 | 105.14   (E)
//	200 | 5 | L'2C | 6.8  | 6.8  | 1.25 | 4.27  | 2086.32  (F)
//	200 | 5 | rand | 0.0  | 2.1  | 0.59 | 1.27  | 2030.33  (G)
//	200 | 5 | I and| 10.0 | 10.8 | 0.56 | 10.02 | 2930.19  (H)
//	200 | 5 | L2n  | 19.9 | 19.0 | 2.07 | 14.77 | 2101.20  (I)
//	200 | 5 | L_2c | 24.1 | 20.8 | 2.63 | 14.77 | 3076.78  (J)
//
//   - 200/4: line A is taken as a stray copy of the line before it (100/4
//     l2d "21.9 | 16.9 | 2.52 | 7.01 | 75.55": same SRH 7.01, digits turned
//     to 0, numeric label like the other stray lines) that took the time
//     of line B (101.44 twice). The rows are then B = cons, C = rand,
//     D = l2n, E = l2d, which fits the other blocks best: E is like 200/3
//     l2d (21.8, 23.3, 4.35, 20.31), C has MDAV = V-MDAV small like every
//     rand row, B like 200/3 cons (4.1, 3.7, 1.10, 2.19). The alternative
//     (A = cons, B = rand, C = l2n, D = l2d, E stray) would give a cons MDAV
//     of 21.0 and an l2n MDAV of 1.5, far from every other cons (<= 10.9)
//     and l2n (>= 12.2) row of Table 4. Still doubtful: cons V-MDAV 1.0
//     against MDAV 5.5; rand MSTH 2.08 and SRH 12.00 above both MDAV and
//     V-MDAV (1.5), SRH 12.00 may be a misread 2.00; l2n MDAV 24.2 is far
//     above Table 4's other l2n rows (12.2 to 20.1; 14.2?); D's time is
//     printed "105 14", the same as E's 105.14, and may be a copy.
//   - 200/5: F, G, H, I = cons, rand, l2n, l2d by values (F like a cons
//     row, H MDAV 10.0 / V-MDAV 10.8 like an l2n row, I MDAV ~ V-MDAV like
//     200/4 l2d); J is taken as a stray copy of I (same SRH 14.77, time
//     3076.78 far from the block's 2030 to 2101). If J were the l2d row
//     instead: 24.1, 20.8, 2.63, 14.77, 3076.78. Still doubtful: rand MDAV
//     "0.0" (every other rand MDAV is >= 1.2, and MSTH 0.59 is then worse
//     than MDAV; possibly a lost digit); l2n time 2930.19 (2030.19?).
//   - Ex is blank (0) on all ten lines.
//
// No field is marked unrecoverable (NaN): every cell has a legible reading.
//
// Other observations (not repairs): Table 3, 200/4 l2n SRH 0.78 is far
// below its MSTH 3.64 and below every other n=200 SRH of Table 3 (2.27 to
// 13.51); it is printed clearly and kept.

import (
	"fmt"
	"strings"
)

// ColgenPublishedSource names the origin of ColgenPublished.
const ColgenPublishedSource = "Gentile, Spagnolo-Arrizabalaga & Castro, column generation for microaggregation, Section 6, Table 3 (Census) and Table 4 (Tarragona)"

// ColgenPublishedRow is one row of Tables 3/4 (averages over 5 instances).
type ColgenPublishedRow struct {
	N     int     `json:"n"`
	K     int     `json:"k"`
	Crit  string  `json:"criterion"` // cons, rand, l2n, l2d
	MDAV  float64 `json:"gap_mdav"`  // average gap %, formula (15)
	VMDAV float64 `json:"gap_vmdav"`
	MSTH  float64 `json:"gap_msth"`
	SRH   float64 `json:"gap_srh"`
	Time  float64 `json:"seconds"` // their C++/CPLEX code
	Ex    int     `json:"ex"`      // instances solved exactly (master LP integral)
}

// ColgenPublished holds Table 3 ("census") and Table 4 ("tarragona") in the
// paper's row order (k = 3, 4, 5; n = 30, 40, 50, 100, 200; cons, rand,
// l2n, l2d). See the reading notes at the top of this file.
var ColgenPublished = map[string][]ColgenPublishedRow{
	// Table 3: Computational Results: "Census" data set.
	"census": {
		{30, 3, "cons", 23.5, 14.7, 5.39, 5.89, 0.02, 0},
		{30, 3, "rand", 21.5, 18.9, 4.26, 3.59, 0.03, 0},
		{30, 3, "l2n", 21.0, 15.9, 6.65, 7.22, 0.02, 0},
		{30, 3, "l2d", 32.6, 24.6, 4.45, 4.57, 0.02, 0},
		{40, 3, "cons", 22.7, 14.2, 4.26, 4.49, 0.04, 0},
		{40, 3, "rand", 14.9, 13.0, 3.31, 3.31, 0.03, 0},
		{40, 3, "l2n", 22.4, 18.5, 3.87, 3.89, 0.04, 0},
		{40, 3, "l2d", 35.2, 27.9, 2.57, 3.57, 0.05, 0},
		{50, 3, "cons", 17.0, 12.4, 4.28, 4.28, 0.09, 0},
		{50, 3, "rand", 21.7, 18.7, 4.70, 5.05, 0.09, 0}, // MSTH printed "4.7"
		{50, 3, "l2n", 23.6, 22.1, 2.80, 2.82, 0.12, 0},
		{50, 3, "l2d", 32.5, 25.0, 2.34, 2.75, 0.08, 0},
		{100, 3, "cons", 22.2, 19.6, 3.05, 3.27, 2.33, 0},
		{100, 3, "rand", 21.9, 18.1, 3.99, 4.01, 2.30, 0},
		{100, 3, "l2n", 22.7, 19.8, 2.82, 2.82, 2.34, 0},
		{100, 3, "l2d", 32.6, 31.0, 3.59, 5.64, 2.32, 0},
		{200, 3, "cons", 18.3, 17.9, 7.04, 9.57, 74.99, 0},
		{200, 3, "rand", 22.8, 20.6, 2.47, 2.47, 75.07, 0},
		{200, 3, "l2n", 19.8, 17.8, 2.27, 2.27, 75.11, 0},
		{200, 3, "l2d", 30.1, 25.1, 2.67, 2.67, 75.25, 0},
		{30, 4, "cons", 17.3, 15.1, 8.50, 9.80, 0.13, 0}, // stray copy before it dropped
		{30, 4, "rand", 29.8, 22.5, 8.55, 9.78, 0.16, 0},
		{30, 4, "l2n", 29.5, 17.2, 3.76, 3.89, 0.13, 0},
		{30, 4, "l2d", 44.2, 26.7, 6.42, 7.60, 0.16, 0},
		{40, 4, "cons", 15.0, 13.3, 2.94, 2.04, 0.49, 1},
		{40, 4, "rand", 15.5, 14.2, 3.99, 3.66, 0.48, 0},
		{40, 4, "l2n", 20.5, 18.9, 1.47, 1.48, 0.50, 2},
		{40, 4, "l2d", 35.6, 22.2, 3.71, 3.39, 0.52, 0},
		{50, 4, "cons", 9.6, 10.8, 3.37, 3.41, 1.80, 0},
		{50, 4, "rand", 21.2, 17.4, 3.68, 4.33, 1.73, 0},
		{50, 4, "l2n", 27.1, 22.1, 1.64, 3.02, 1.80, 0},
		{50, 4, "l2d", 38.7, 29.7, 3.64, 7.58, 1.79, 0},
		{100, 4, "cons", 17.8, 16.0, 3.11, 6.26, 75.46, 0},
		{100, 4, "rand", 17.4, 15.5, 3.29, 3.36, 75.00, 0},
		{100, 4, "l2n", 18.0, 17.6, 3.13, 4.93, 75.61, 0},
		{100, 4, "l2d", 31.2, 27.2, 3.22, 7.17, 75.22, 0},
		{200, 4, "cons", 21.2, 19.9, 5.19, 13.51, 104.88, 0},
		{200, 4, "rand", 23.0, 19.6, 3.80, 5.74, 100.96, 0},
		{200, 4, "l2n", 18.9, 19.3, 3.64, 0.78, 93.89, 0},
		{200, 4, "l2d", 32.3, 28.4, 4.38, 10.69, 96.23, 0},
		{30, 5, "cons", 13.8, 9.8, 3.84, 4.41, 0.39, 2},
		{30, 5, "rand", 23.5, 14.2, 5.11, 6.53, 0.34, 1},
		{30, 5, "l2n", 15.2, 13.7, 1.22, 2.30, 0.33, 3},
		{30, 5, "l2d", 32.0, 23.2, 3.19, 3.19, 0.34, 1},
		{40, 5, "cons", 13.6, 10.3, 1.55, 2.73, 1.43, 1},
		{40, 5, "rand", 10.3, 9.0, 3.62, 3.86, 1.25, 0},
		{40, 5, "l2n", 14.7, 12.5, 0.61, 0.61, 1.29, 3},
		{40, 5, "l2d", 30.3, 26.7, 4.15, 4.15, 1.40, 1},
		{50, 5, "cons", 19.4, 18.6, 5.07, 5.98, 4.64, 1},
		{50, 5, "rand", 19.0, 14.8, 2.47, 2.38, 4.17, 0},
		{50, 5, "l2n", 18.9, 18.9, 1.94, 1.89, 4.26, 1},
		{50, 5, "l2d", 31.1, 23.0, 4.20, 4.20, 4.37, 0}, // printed "4.2", "4.2"
		{100, 5, "cons", 17.8, 15.5, 3.21, 3.30, 167.14, 0},
		{100, 5, "rand", 18.7, 17.9, 3.26, 3.35, 152.96, 0},
		{100, 5, "l2n", 20.6, 17.7, 2.68, 5.72, 155.88, 0},
		{100, 5, "l2d", 35.2, 25.2, 2.69, 2.98, 152.99, 0},
		{200, 5, "cons", 19.6, 17.7, 2.26, 4.90, 1823.79, 0},
		{200, 5, "rand", 22.6, 20.2, 4.37, 10.32, 2125.44, 0},
		{200, 5, "l2n", 21.4, 19.9, 1.96, 3.88, 1739.64, 0},
		{200, 5, "l2d", 38.2, 33.1, 3.97, 8.91, 1728.77, 0},
	},
	// Table 4: Computational Results: "Tarragona" data set.
	"tarragona": {
		{30, 3, "cons", 10.8, 7.9, 1.00, 1.00, 0.03, 0},
		{30, 3, "rand", 3.2, 3.0, 0.43, 0.43, 0.02, 1},
		{30, 3, "l2n", 13.0, 11.9, 2.15, 1.93, 0.02, 0},
		{30, 3, "l2d", 20.8, 16.2, 2.82, 2.82, 0.02, 2},
		{40, 3, "cons", 10.3, 10.4, 5.88, 5.88, 0.04, 0},
		{40, 3, "rand", 3.4, 3.3, 0.07, 0.09, 0.03, 0},
		{40, 3, "l2n", 16.9, 12.9, 1.42, 1.42, 0.05, 0},
		{40, 3, "l2d", 25.1, 16.3, 2.89, 2.89, 0.04, 0},
		{50, 3, "cons", 10.9, 9.3, 6.04, 6.11, 0.10, 0},
		{50, 3, "rand", 3.4, 3.3, 0.29, 0.33, 0.16, 0},
		{50, 3, "l2n", 13.4, 12.9, 1.54, 1.91, 0.10, 0},
		{50, 3, "l2d", 30.6, 23.9, 1.80, 1.82, 0.09, 0},
		{100, 3, "cons", 7.1, 5.9, 2.16, 2.16, 2.36, 0},
		{100, 3, "rand", 3.1, 3.2, 0.16, 0.39, 2.48, 0},
		{100, 3, "l2n", 13.0, 12.5, 1.30, 1.30, 2.40, 0}, // printed "1 30"
		{100, 3, "l2d", 24.3, 19.0, 1.11, 1.11, 2.00, 0}, // duplicated line; or 24.5, 15.0, 2.30
		{200, 3, "cons", 4.1, 3.7, 1.10, 2.19, 75.31, 0},
		{200, 3, "rand", 2.0, 2.4, 2.00, 2.10, 75.47, 0},
		{200, 3, "l2n", 13.4, 12.0, 3.90, 9.27, 75.40, 0},
		{200, 3, "l2d", 21.8, 23.3, 4.35, 20.31, 75.49, 0},
		{30, 4, "cons", 8.4, 6.1, 1.00, 0.93, 0.16, 0},
		{30, 4, "rand", 6.6, 5.2, 0.15, 0.15, 0.13, 0},
		{30, 4, "l2n", 20.1, 15.1, 2.19, 2.59, 0.13, 0},
		{30, 4, "l2d", 31.1, 21.6, 2.94, 3.08, 0.16, 0},
		{40, 4, "cons", 7.3, 5.7, 2.83, 2.74, 0.51, 0},
		{40, 4, "rand", 1.7, 1.9, 0.91, 0.92, 0.51, 0},
		{40, 4, "l2n", 13.1, 10.8, 0.11, 0.11, 0.51, 3},
		{40, 4, "l2d", 17.1, 14.6, 1.86, 1.85, 0.54, 1},
		{50, 4, "cons", 8.6, 8.0, 2.28, 2.34, 1.83, 0},
		{50, 4, "rand", 5.1, 4.9, 0.38, 0.38, 1.90, 0},
		{50, 4, "l2n", 13.6, 13.5, 1.06, 1.11, 1.90, 0}, // SRH printed "1 11"
		{50, 4, "l2d", 22.3, 20.7, 3.05, 4.06, 1.78, 0}, // k printed "1", time "1 78"
		{100, 4, "cons", 4.2, 4.8, 0.45, 0.47, 75.83, 0},
		{100, 4, "rand", 2.1, 2.0, 0.40, 0.47, 78.24, 0},
		{100, 4, "l2n", 12.2, 12.0, 2.02, 5.77, 75.60, 0},
		{100, 4, "l2d", 21.9, 16.9, 2.52, 7.01, 75.55, 0},
		{200, 4, "cons", 5.5, 1.0, 1.11, 1.95, 101.44, 0},   // line B; doubtful
		{200, 4, "rand", 1.5, 1.5, 2.08, 12.00, 108.70, 0},  // line C; doubtful
		{200, 4, "l2n", 24.2, 10.1, 3.98, 13.62, 105.14, 0}, // line D; doubtful
		{200, 4, "l2d", 24.3, 23.0, 5.94, 17.55, 105.14, 0}, // line E; doubtful
		{30, 5, "cons", 4.7, 3.5, 0.80, 0.93, 0.43, 2},
		{30, 5, "rand", 3.7, 3.3, 0.46, 0.46, 0.37, 2},
		{30, 5, "l2n", 12.3, 12.4, 0.25, 0.24, 0.36, 2},
		{30, 5, "l2d", 25.3, 18.9, 0.62, 0.48, 0.38, 1},
		{40, 5, "cons", 8.0, 8.1, 0.87, 0.84, 1.46, 1},
		{40, 5, "rand", 2.2, 1.9, 0.23, 0.64, 1.47, 1},
		{40, 5, "l2n", 13.8, 11.2, 1.64, 1.50, 1.52, 0},
		{40, 5, "l2d", 13.9, 15.1, 0.78, 0.78, 1.45, 1},
		{50, 5, "cons", 9.7, 8.5, 1.04, 1.04, 4.51, 0},
		{50, 5, "rand", 1.2, 1.2, 0.13, 0.13, 4.65, 2},
		{50, 5, "l2n", 13.4, 13.0, 2.20, 2.33, 4.70, 1}, // MSTH printed "2.2"
		{50, 5, "l2d", 20.8, 17.1, 1.79, 2.06, 4.92, 0}, // Ex printed "-"
		{100, 5, "cons", 6.2, 5.0, 0.88, 1.71, 168.10, 0},
		{100, 5, "rand", 1.2, 1.0, 0.05, 0.06, 169.31, 0},
		{100, 5, "l2n", 13.5, 11.7, 0.81, 1.08, 159.60, 0},
		{100, 5, "l2d", 18.5, 16.4, 3.72, 9.50, 165.90, 0},
		{200, 5, "cons", 6.8, 6.8, 1.25, 4.27, 2086.32, 0},   // line F; doubtful
		{200, 5, "rand", 0.0, 2.1, 0.59, 1.27, 2030.33, 0},   // line G; doubtful
		{200, 5, "l2n", 10.0, 10.8, 0.56, 10.02, 2930.19, 0}, // line H; doubtful
		{200, 5, "l2d", 19.9, 19.0, 2.07, 14.77, 2101.20, 0}, // line I; doubtful
	},
}

// ColgenPublishedDoubtful lists the rows of ColgenPublished whose reading is
// uncertain, keyed "data/n/k/crit", with the reason (details in the reading
// notes at the top of this file). Comparisons against the paper should
// report these rows apart.
var ColgenPublishedDoubtful = map[string]string{
	"tarragona/100/3/l2d":  "two extraction lines for this row; MDAV 24.3 or 24.5, V-MDAV 19.0 or 15.0, time 2.00 or 2.30",
	"tarragona/200/4/cons": "200/4 block garbled (5 lines, labels out of order); row assignment inferred",
	"tarragona/200/4/rand": "200/4 block garbled; MSTH and SRH above MDAV and V-MDAV, SRH 12.00 possibly 2.00",
	"tarragona/200/4/l2n":  "200/4 block garbled; MDAV 24.2 unlike other l2n rows, time printed \"105 14\"",
	"tarragona/200/4/l2d":  "200/4 block garbled; row assignment inferred",
	"tarragona/200/5/cons": "200/5 block garbled (5 lines, labels out of order); row assignment inferred",
	"tarragona/200/5/rand": "200/5 block garbled; MDAV printed 0.0, possibly a lost digit",
	"tarragona/200/5/l2n":  "200/5 block garbled; time 2930.19 far from the block's other times",
	"tarragona/200/5/l2d":  "200/5 block garbled; a second l2d-like line reads 24.1, 20.8, 2.63, 14.77, 3076.78",
}

// colgenPublishedKey is the key of a row in ColgenPublishedDoubtful.
func colgenPublishedKey(data string, n, k int, crit string) string {
	return fmt.Sprintf("%s/%d/%d/%s", data, n, k, crit)
}

// ColgenPublishedLookup returns the published row of data ("census" or
// "tarragona", case-insensitive), subset size n, minimum group size k and
// extraction criterion crit ("cons", "rand", "l2n", "l2d"; Table 4's name
// "l2c" is accepted for "l2d").
func ColgenPublishedLookup(data string, n, k int, crit string) (ColgenPublishedRow, bool) {
	crit = strings.ToLower(crit)
	if crit == "l2c" {
		crit = "l2d"
	}
	for _, r := range ColgenPublished[strings.ToLower(data)] {
		if r.N == n && r.K == k && r.Crit == crit {
			return r, true
		}
	}
	return ColgenPublishedRow{}, false
}
