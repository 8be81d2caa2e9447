// Package roles classifies the columns of a data set for publication, the
// way ARX does (Prasser & Kohlmayer, "Putting statistical disclosure control
// into practice: the ARX data anonymization tool", 2015, Section 2.1), and
// checks the columns published unchanged for leaks that would undo the
// protection of the quasi-identifiers.
//
// Every column has one of four roles, or none:
//
//   - Identifier: directly identifying (a name, a record id); removed.
//   - QuasiIdentifier: protected, generalized (k-anonymity) or
//     microaggregated.
//   - Sensitive, Insensitive: published unchanged. The distinction is the
//     user's (ARX uses it for l-diversity and t-closeness; here both are
//     published as they are).
//   - Unclassified: a column nobody named. It is not published: a column
//     reaches the published file only when the user named it.
//
// New builds an Assignment from a CSV header and the role lists; Published
// lists what is released (in the input's column order), Dropped what is
// not.
//
// # The leak check
//
// A column published unchanged can undo the protection of the
// quasi-identifiers in three ways, and Check looks for all three:
//
//   - It determines a quasi-identifier, or nearly (Determines). For a
//     column C and a quasi-identifier Q over n records, let n_c be the
//     number of records with value c of C and n_cq those that also have
//     value q of Q. The share of records whose Q value is revealed by C is
//
//     share(C→Q) = Σ_{c : n_c ≥ 2} max_q n_cq / n,
//
//     the success rate of guessing Q as the most frequent Q value among the
//     records sharing one's C value; values of C that occur once are left
//     out (they are the uniqueness check's business, and would make any
//     nearly unique column "determine" everything). Guessing without C
//     succeeds with chance(Q) = max_q n_q / n. The column is flagged when
//     its gain over chance,
//
//     gain(C→Q) = (share − chance) / (1 − chance),
//
//     reaches Settings.MinGain (default 0.5): knowing C removes at least
//     half of the errors of guessing Q. The gain is Goodman & Kruskal's
//     λ (proportional reduction in error; "Measures of association for
//     cross classifications", JASA 49, 1954, Section 5.1) with the
//     singleton values of C counted as errors. It is 1 when C is a function
//     of Q's values on its repeated values and 0 when C does not help.
//     A quasi-identifier that is constant (chance = 1) cannot be revealed
//     and is skipped.
//
//   - It pins a quasi-identifier exactly for many records (Pins), though
//     not on average: a column equal to the age for the rare ages and
//     "x" elsewhere has a small gain, the "x" records outweighing the
//     rest, yet gives the exact age of the records that matter most. A
//     record i is pinned by C for Q when its value c of C is repeated
//     (n_c ≥ 2), every record with value c has Q value q_i (the column
//     gives that record's exact Q, whatever the protected output shows of
//     it), and q_i is not a most frequent value of Q (n_q < max n_q: a
//     guess without C gets that value right anyway). The pinned share is
//
//     pinned(C→Q) = Σ_{c : n_c ≥ 2, every record of c has one q, n_q < max n_q} n_c / n.
//
//     Small values of C are pure by coincidence too: were C independent
//     of Q, the n_c records of c would all have value q with chance
//     (n_q/n)^n_c, so the share expected by chance is
//
//     pinnedChance(C→Q) = Σ_{c : n_c ≥ 2} n_c · Σ_{q : n_q < max n_q} (n_q/n)^n_c / n.
//
//     The column is flagged when pinned − pinnedChance reaches
//     Settings.MaxPinned (default DefaultMaxPinned, 0.05), and the pair
//     is not already flagged as Determines. The check runs on the input,
//     before the protection: it counts a pinned record even where the
//     protected output happens to publish that quasi-identifier exactly
//     (a generalization that leaves the value whole), and then the
//     finding is a false alarm that --keep-risky overrides. Values of C
//     held by one record are left to the uniqueness check, as above.
//
//   - It is nearly unique (Unique): the share of records whose value of C
//     no other record has (the sample uniques of C alone, f_k = 1 in
//     sdcMicro's terms) reaches Settings.MaxUnique (default 0.2). Such a
//     value singles a record out whatever the quasi-identifiers show.
//
// The thresholds were chosen by measuring UCI Adult (30,162 records
// without missing quasi-identifiers; the measurements are in
// adult_test.go, TestAdultLeaks): education determines education-num with
// gain 1.00 and relationship marital-status with 0.64 (Husband and Wife
// pin Married-civ-spouse), both flagged; every other pair of a column and
// one of the 8 quasi-identifiers of datasets.AdultQI stays at or below
// 0.32 (relationship → sex), income at or below 0.10. fnlwgt has 47.9 % of
// its records unique; every other Adult column 0.05 % or less. education
// pins education-num for 67.4 % of the records (all but the modal
// value's); fnlwgt, a weight calibrated to age, sex and race totals, pins
// sex for 11.6 % (3.0 % by chance) and age for 6.1 % (0.5 %); every other
// pair at most 0.12 % beyond chance (native-country → race).
//
// The check is per column and per quasi-identifier: it does not look at
// combinations of published columns, nor at a column that reveals a range
// of a numeric quasi-identifier without pinning its exact value. Cells
// are compared as text. Settings carries the three thresholds; a zero
// field takes its default.
package roles
