#!/usr/bin/env python3
"""Prints the reference values that stats' tests hold.

Run with Debian bookworm's scipy 1.10.1 (apt-get install python3-scipy;
/usr/bin/python3 testdata/reference.py). scipy's f and t distributions come
from the Cephes library, and scipy.stats.levene(center='median') is the
Brown-Forsythe test, center='mean' Levene's original: implementations
independent of the Go code they check.
"""
from scipy import stats
import numpy as np

print("# F distribution: x, d1, d2, cdf, sf")
for x, d1, d2 in [(7.7086, 1, 4), (5.3177, 1, 8), (10.044, 1, 10), (4.1028, 2, 10),
                  (0.5, 1, 4), (100, 1, 4), (1e4, 1, 38), (3.0, 5, 20), (0.01, 1, 2)]:
    print(x, d1, d2, repr(stats.f.cdf(x, d1, d2)), repr(stats.f.sf(x, d1, d2)))

print("# t distribution: x, df, cdf")
for x, df in [(2.776445, 4), (12.7062, 1), (3.169273, 10), (1.697261, 30),
              (-2.5, 7), (0.3, 3), (1.96, 1e6)]:
    print(x, df, repr(stats.t.cdf(x, df)))

# The data sets of TestBrownForsytheReference.
sets = {
    # gen/node-workload/measurements.json in the corpus: wholeWorkload
    # cpuMs of the five unprofiled runs of each build, in seconds.
    "workload cpu": ([6.319, 8.545, 8.175, 6.564, 6.222],
                     [4.662, 6.497, 6.914, 4.812, 4.786]),
    # The same file: routerMicrobench roundsMs, twelve rounds of each build.
    "router rounds": ([676.4, 728.4, 693.5, 645.2, 644.7, 643.9, 653.9, 659.5, 653.3, 662.1, 645.8, 617.1],
                      [57.2, 31.4, 28.6, 29.1, 29.6, 29.2, 29.8, 29.9, 28.9, 29.5, 29.7, 29.6]),
    "one outlier": ([1, 2, 3, 4, 50], [10, 11, 13, 14, 15, 30]),
    "verdict flips": ([1, 2, 2, 3, 19, 20], [2, 4, 7, 10, 13, 15]),
    "ties": ([10, 10, 20, 20, 20, 30], [10, 20, 20, 20, 20, 20, 40]),
    "one side constant": ([5, 5, 5], [1, 2, 3]),
    "one side constant, n=10": ([5] * 10, [1, 9, 2, 8, 3, 7, 4, 6, 0, 10]),
    "b noisier": ([100, 101, 99, 100.5, 99.5, 100.2, 99.8, 100.1],
                  [90, 112, 95, 108, 101, 87, 115, 99]),
    "3 vs 10": ([4.1, 4.3, 4.2], [3.0, 5.5, 4.4, 3.9, 6.1, 4.8, 2.7, 5.0, 4.6, 3.3]),
}
print("# Brown-Forsythe: name, F, p | Levene (mean-centred) F, p | sd(b)/sd(a)")
for name, (a, b) in sets.items():
    m = stats.levene(a, b, center="median")
    l = stats.levene(a, b, center="mean")
    with np.errstate(divide="ignore"):
        ratio = np.std(b, ddof=1) / np.std(a, ddof=1)
    print(name, repr(m.statistic), repr(m.pvalue), "|", repr(l.statistic), repr(l.pvalue), "|", repr(ratio))

print("# MAD (scaled to sigma) and sample standard deviation")
for xs in [[1, 2, 3, 4, 100], [2, 4, 4, 4, 5, 5, 7, 9], [1, 3]]:
    print(xs, repr(stats.median_abs_deviation(xs, scale="normal")), repr(np.std(xs, ddof=1)))
