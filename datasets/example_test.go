package datasets_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/roles"
)

// ReadCSV keeps every cell as text and selects the columns of numbers for
// microaggregation; WriteProtected publishes what the roles say: the
// microaggregated columns (quasi-identifiers) at the file's precision
// (1090 and 37.5 written as 38, rounded half to even, as the file has
// integers), without the identifier and the column in no role.
func ExampleReadCSV() {
	const in = "id,region,income,age\n" +
		"a1,north,1200,34\n" +
		"a2,south,1350,29\n" +
		"a3,north,980,41\n" +
		"a4,east,2100,52\n"
	t, err := datasets.ReadCSV(strings.NewReader(in), "people.csv", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("selected", t.Data.Names, "of", t.Header, "records", t.NumRecords())

	a, err := roles.New(t.Header,
		roles.List{Role: roles.Identifier, Columns: []string{"id"}},
		roles.List{Role: roles.QuasiIdentifier, Columns: t.Data.Names}) // region: in no role
	if err != nil {
		fmt.Println(err)
		return
	}
	c, _ := model.NewClustering(4, [][]int{{0, 2}, {1, 3}})
	if err := t.WriteProtected(os.Stdout, model.Protect(t.Data, c), a); err != nil {
		fmt.Println(err)
	}

	// A column mixing numbers and missing values is an error, never a
	// column silently left out (and published unmasked).
	_, err = datasets.ReadCSV(strings.NewReader("x,y\n1,2\n3,NA\n"), "bad.csv", nil)
	fmt.Println(err)
	// Output:
	// selected [income age] of [id region income age] records 4
	// income,age
	// 1090,38
	// 1725,40
	// 1090,38
	// 1725,40
	// bad.csv:3: column "y": missing value "NA" in a column of numbers (first number "2" on line 2): fix the cell, or select the columns to microaggregate explicitly with --cols (the others are kept unmasked)
}

// The generators are seeded: the same name and seed give the same data.
func ExampleSynthetic() {
	for _, name := range datasets.SyntheticNames() {
		ds, err := datasets.Synthetic(name, 1)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-9s %5d records x %2d attributes\n", name, ds.N, ds.D)
	}
	ds, _ := datasets.Synthetic("sim1", 42)
	again, _ := datasets.Synthetic("sim1", 42)
	fmt.Printf("sim1 seed 42 reproducible: %v, first value %.3f\n", ds.X[0] == again.X[0], ds.X[0])
	// Output:
	// synthetic 10000 records x 10 attributes
	// sim1        100 records x 10 attributes
	// sim2        100 records x  7 attributes
	// sim3        100 records x  8 attributes
	// sim1 seed 42 reproducible: true, first value -253.793
}

// ReadQI reads quasi-identifiers for k-anonymity: numeric ones with
// their range, categorical ones coded in sorted order of their values.
func ExampleReadQI() {
	const in = "age,zip,disease\n23,1002,flu\n31,1001,cold\n?,1001,flu\n45,1003,flu\n"
	q, err := datasets.ReadQI(strings.NewReader(in), "people.csv", []string{"age", "zip"}, []string{"zip"}, false)
	if err != nil {
		fmt.Println(err)
		return
	}
	t := q.Table
	fmt.Println(t.N, "records,", q.Dropped, "dropped for a missing value")
	fmt.Printf("age in [%g, %g]; zip categories %v\n", t.Attrs[0].Min, t.Attrs[0].Max, t.Attrs[1].Categories)
	for i := 0; i < t.N; i++ {
		fmt.Println("file row", q.Rows[i]+1, "->", t.Row(i))
	}
	// Output:
	// 3 records, 1 dropped for a missing value
	// age in [23, 45]; zip categories [1001 1002 1003]
	// file row 1 -> [23 1]
	// file row 2 -> [31 0]
	// file row 4 -> [45 2]
}

// ParseSpec reads the --data argument of the CLI without loading anything.
func ExampleParseSpec() {
	for _, s := range []string{"tarragona", "synthetic:sim2", "synthetic:gauss-500-4-5:7", "data/my.csv"} {
		sp, err := datasets.ParseSpec(s)
		fmt.Println(sp, sp.Kind == datasets.SpecFile, err)
	}
	// Output:
	// tarragona false <nil>
	// synthetic:sim2:1 false <nil>
	// synthetic:gauss-500-4-5:7 false <nil>
	// data/my.csv true <nil>
}

// ReadCSVWith reads a semicolon file with decimal commas, imputes a
// missing value with the column mean, and publishes the protected file in
// the same dialect, rounded to the source's precision (Decimals, which
// WriteProtected applies unless Digits says otherwise).
func ExampleReadCSVWith() {
	const in = "id;income;age\n" +
		"a1;1200,50;34\n" +
		"a2;1350,25;NA\n" +
		"a3;980,00;41\n" +
		"a4;2100,75;52\n"
	opt := &datasets.CSVOptions{
		Dialect: datasets.Dialect{Sep: ';', Decimal: ','},
		Missing: datasets.MissingImputeMean,
	}
	t, err := datasets.ReadCSVWith(strings.NewReader(in), "people.csv", []string{"income", "age"}, opt)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("imputed records", t.MissingRecords, "source decimals", t.Decimals)

	a, err := roles.New(t.Header,
		roles.List{Role: roles.Identifier, Columns: []string{"id"}},
		roles.List{Role: roles.QuasiIdentifier, Columns: []string{"income", "age"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	c, _ := model.NewClustering(4, [][]int{{0, 2}, {1, 3}})
	if err := t.WriteProtected(os.Stdout, model.Protect(t.Data, c), a); err != nil {
		fmt.Println(err)
	}
	// a2's age is imputed as (34+41+52)/3 = 42.33, so its group's age is
	// (42.33+52)/2 = 47.17, written 47; 37.5 rounds to the even 38.

	// Output:
	// imputed records 1 source decimals [2 0]
	// income;age
	// 1090,25;38
	// 1725,50;47
	// 1090,25;38
	// 1725,50;47
}
