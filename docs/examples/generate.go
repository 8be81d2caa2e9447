//go:build ignore

// generate writes people.csv, the synthetic example of the README's
// "Protect your own CSV in three commands": 300 invented respondents,
// drawn from a fixed seed (no real person, no benchmark file). Run it from
// the checkout as
//
//	go run docs/examples/generate.go > docs/examples/people.csv
package main

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
)

func main() {
	r := rand.New(rand.NewPCG(2026, 28))
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	regions := []string{"north", "south", "east", "west", "centre"}
	educations := []string{"primary", "secondary", "tertiary"}
	diagnoses := []string{"none", "none", "none", "flu", "asthma", "diabetes", "hypertension"}
	fmt.Fprintln(w, "id,age,sex,region,education,hours,income,diagnosis")
	for i := 1; i <= 300; i++ {
		age := 18 + r.IntN(63)
		sex := "F"
		if r.IntN(2) == 1 {
			sex = "M"
		}
		edu := r.IntN(3)
		hours := 20 + 5*r.IntN(5)
		// Income grows with education and hours, lognormal noise; whole euros.
		income := math.Round(float64(hours) * (300 + 150*float64(edu)) * math.Exp(0.3*r.NormFloat64()))
		fmt.Fprintf(w, "P%04d,%d,%s,%s,%s,%d,%.0f,%s\n", i, age, sex, regions[r.IntN(len(regions))],
			educations[edu], hours, income, diagnoses[r.IntN(len(diagnoses))])
	}
}
