// Package stats holds the statistics profdiff judges with, apart from the
// rows they judge, as benchstat's benchmath is apart from its tables: the
// spread of a side's runs (StdDev, MAD), a test for equal spread between
// two sides (BrownForsythe), and the distributions their p-values come
// from (FCDF, TCDF). It knows nothing of profiles, rows or units, takes
// plain float64 samples, and never prints.
package stats
