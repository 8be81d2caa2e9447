package microagg_test

import (
	"fmt"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/model"
)

// MDAV on ten records of two attributes (height in cm, weight in kg),
// z-scored first as the literature does, with groups of at least k = 3.
// The protected data set replaces every record by its group's centroid in
// original units.
func ExampleMDAV() {
	x := []float64{
		150, 50, 152, 54, 155, 53,
		170, 70, 172, 68, 175, 75,
		190, 90, 185, 88, 188, 95,
		160, 60,
	}
	raw, err := model.NewDataset([]string{"height", "weight"}, 10, 2, x)
	if err != nil {
		fmt.Println(err)
		return
	}
	z, _ := model.Standardize(raw)
	c, err := microagg.MDAV(z, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("groups", c.Groups())
	fmt.Printf("IL = %.2f%%\n", model.IL(z, c))
	prot := model.Protect(raw, c)
	fmt.Printf("record 9 (%g, %g) is published as (%.2f, %.2f)\n", raw.Row(9)[0], raw.Row(9)[1], prot.Row(9)[0], prot.Row(9)[1])
	// Output:
	// groups [[6 7 8] [0 1 2] [3 4 5 9]]
	// IL = 6.88%
	// record 9 (160, 60) is published as (169.25, 68.25)
}

// ICSM (Mortazavi & Jalili 2015) starts from MDAV and repairs exchanges,
// migrations and cyclic moves that lower the SSE, here on the seeded Sim-1
// data (100 records of 10 attributes uniform on [-1000, 1000], their
// Section 5.1). The result does not depend on the number of workers.
func ExampleICSM() {
	raw, err := datasets.Synthetic("sim1", 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	z, _ := model.Standardize(raw)
	const k = 3
	mdav, err := microagg.MDAV(z, k)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := microagg.ICSM(z, k, microagg.ICSMOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := res.Clustering.CheckK(z.N, k); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d records, k = %d\n", z.N, k)
	fmt.Printf("MDAV IL = %.2f%%, %d groups\n", model.IL(z, mdav), mdav.NumGroups)
	fmt.Printf("ICSM IL = %.2f%%, %d groups\n", res.IL, res.Clustering.NumGroups)
	// Output:
	// 100 records, k = 3
	// MDAV IL = 32.24%, 33 groups
	// ICSM IL = 27.17%, 33 groups
}

// Run selects a method by name, as the CLI does; here on the seeded
// Sim-2 data (5 Gaussian clusters of 20 records, Mortazavi & Jalili,
// Section 5.1) with k = 5.
func ExampleRun() {
	raw, _ := datasets.Synthetic("sim2", 7)
	z, _ := model.Standardize(raw)
	for _, m := range []string{microagg.MethodMDAV, microagg.MethodVMDAV, microagg.MethodICSM} {
		c, err := microagg.Run(m, z, 5, microagg.Options{})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-5s IL = %.2f%%\n", m, model.IL(z, c))
	}
	// Output:
	// mdav  IL = 33.53%
	// vmdav IL = 34.91%
	// icsm  IL = 26.38%
}
