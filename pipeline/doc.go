// Package pipeline runs sdcopt's protection methods and benchmark grids as
// Apache Beam pipelines (Beam's Go SDK): in this process on the prism
// runner, or on a Flink or Spark cluster through a portable job endpoint
// (Runner).
//
// Kanon and Microagg split the records into coarse parts by Mondrian's
// median rule (LeFevre, DeWitt and Ramakrishnan, ICDE 2006) with the split
// points computed from a seeded Bernoulli sample (BuildTree, InSample), so
// no worker needs all the records; each part is then protected in a ParDo
// by the single-machine method on that part (kanon.Anonymize with median
// partitions; microagg.MDAV, optionally polished by microagg.ICSM), and
// the measures are combined over the parts (GCP = Σ n_p·GCP_p / n, Xu et
// al.'s global certainty penalty as in model.QITable.GCP; IL = 100·SSE/SST
// as in model.IL, SST from the combined per-attribute sums and sums of
// squares; IL1s, interval disclosure and a within-part DBRL bound as in
// package risk, of the published values when MicroaggConfig.Digits
// gives the file's precision: the centroids rounded in the workers as
// datasets writes them; see MicroaggResult). KanonLocal and MicroaggLocal run the
// same coarse parts without Beam: the reference the pipelines are tested
// against, result for result.
//
// KanonPublish streams a publication: the records of a Source are staged
// one at a time, each worker writes and verifies its part's published
// rows and graph lines, and the parts' files are merged row by row
// (Interleave); the comment above Source says why the verification is
// complete. Kanon returns the whole result in memory instead.
//
// Bench runs a grid spec file (Grid) of `sdcopt bench icsm`, `kanon` or
// `mdav` cases as one pipeline element per case and merges them into the
// bench report; it first checks the cases' data (Grid.CheckData: a k
// above a data set's records, or missing shared data, is a GridError
// before the pipeline starts).
//
// The driver stages the records in the run's work directory (one line per
// batch of StageBatch records, in the compact encoding of Rec's coder),
// which the workers read (textio), and reads the parts' results back from
// it; on a cluster it must be storage that every worker reaches. The work
// directory is a new private one (mode 0700) that each run makes inside
// Runner.WorkDir and removes at the end: nothing else there is written,
// so no file in Runner.WorkDir, an input included, is ever replaced.
package pipeline
