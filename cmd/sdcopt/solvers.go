package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/solvers"
)

func newSolversCmd() *cobra.Command {
	var format string
	c := &cobra.Command{
		Use:   "solvers",
		Short: "List the LP/MIP engines with version, availability and capabilities",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := cli.CheckFormat(format, "text", "json"); err != nil {
				return err
			}
			return printSolvers(c.OutOrStdout(), format)
		},
	}
	c.Flags().StringVar(&format, "format", "text", "output format: text|json")
	return c
}

func printSolvers(w io.Writer, format string) error {
	start := time.Now()
	list := solvers.List()
	if format == "json" {
		auto := currentAuto()
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Method  string         `json:"method"`
			Solvers []solvers.Info `json:"solvers"`
			Auto    autoChoice     `json:"auto"`
			Seconds float64        `json:"seconds"` // probing the engines
		}{"solvers", list, auto, time.Since(start).Seconds()})
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ENGINE\tVERSION\tAVAILABLE\tCAPABILITIES\tDESCRIPTION")
	for _, e := range list {
		avail := "yes"
		if !e.Available {
			avail = "no"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.Name, e.Version, avail, capString(e.Capabilities), e.Description)
	}
	tw.Flush()
	for _, e := range list {
		if !e.Available {
			fmt.Fprintf(w, "  %s unavailable: %s\n", e.Name, e.Reason)
		}
	}
	a := currentAuto()
	fmt.Fprintf(w, "auto: LP -> %s, MIP -> %s\n", a.LP, a.MIP)
	return nil
}

type autoChoice struct {
	LP  string `json:"lp"`
	MIP string `json:"mip"`
}

func currentAuto() autoChoice {
	name := func(mip bool) string {
		s, err := solvers.New("auto", mip)
		if err != nil {
			return "none"
		}
		return s.Name()
	}
	return autoChoice{LP: name(false), MIP: name(true)}
}

func capString(c solvers.Capabilities) string {
	var parts []string
	add := func(ok bool, s string) {
		if ok {
			parts = append(parts, s)
		}
	}
	add(c.LP, "lp")
	add(c.Integer, "mip")
	add(c.Duals, "duals")
	add(c.Incremental, "incremental")
	add(c.WarmStart, "warm_start")
	add(c.TimeLimit, "time_limit")
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ",")
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the sdcopt version and the engine versions",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			w := c.OutOrStdout()
			fmt.Fprintf(w, "sdcopt %s (%s, %s/%s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			for _, e := range solvers.List() {
				if e.Available {
					fmt.Fprintf(w, "  %s %s\n", e.Name, e.Version)
				} else {
					fmt.Fprintf(w, "  %s unavailable\n", e.Name)
				}
			}
			return nil
		},
	}
}
