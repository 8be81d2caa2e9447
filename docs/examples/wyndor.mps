* Wyndor Glass product mix (Hillier & Lieberman, Section 3.1):
* maximize 3 doors + 5 windows; optimum (2, 6) with value 36.
NAME wyndor
OBJSENSE
    MAX
ROWS
 N  profit
 L  plant1
 L  plant2
 L  plant3
COLUMNS
    doors    profit  3   plant1  1
    doors    plant3  3
    windows  profit  5   plant2  2
    windows  plant3  2
RHS
    rhs  plant1  4   plant2  12
    rhs  plant3  18
ENDATA
