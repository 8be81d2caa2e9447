* A two-constraint 0-1 knapsack with eight items:
* maximize value subject to weight <= 50 and volume <= 40.
* Optimum 65 (items 1, 2, 7, 8), found by enumerating all 256 item subsets.
NAME knapsack
OBJSENSE
    MAX
ROWS
 N  value
 L  weight
 L  volume
COLUMNS
    MARKER  'MARKER'  'INTORG'
    i1  value  16  weight  12
    i1  volume  8
    i2  value  19  weight  15
    i2  volume  11
    i3  value  23  weight  18
    i3  volume  13
    i4  value  28  weight  21
    i4  volume  17
    i5  value  11  weight  8
    i5  volume  9
    i6  value  14  weight  11
    i6  volume  6
    i7  value  9  weight  7
    i7  volume  5
    i8  value  21  weight  16
    i8  volume  14
    MARKER  'MARKER'  'INTEND'
RHS
    rhs  weight  50  volume  40
BOUNDS
 BV bnd i1
 BV bnd i2
 BV bnd i3
 BV bnd i4
 BV bnd i5
 BV bnd i6
 BV bnd i7
 BV bnd i8
ENDATA
