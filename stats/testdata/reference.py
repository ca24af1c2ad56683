#!/usr/bin/env python3
"""Prints the reference values that stats' tests hold.

Run with Debian bookworm's scipy 1.10.1 (apt-get install python3-scipy;
/usr/bin/python3 testdata/reference.py). scipy's f and t distributions come
from the Cephes library, an implementation independent of the Go code they
check.
"""
from scipy import stats

print("# F distribution: x, d1, d2, cdf, sf")
for x, d1, d2 in [(7.7086, 1, 4), (5.3177, 1, 8), (10.044, 1, 10), (4.1028, 2, 10),
                  (0.5, 1, 4), (100, 1, 4), (1e4, 1, 38), (3.0, 5, 20), (0.01, 1, 2)]:
    print(x, d1, d2, repr(stats.f.cdf(x, d1, d2)), repr(stats.f.sf(x, d1, d2)))

print("# t distribution: x, df, cdf")
for x, df in [(2.776445, 4), (12.7062, 1), (3.169273, 10), (1.697261, 30),
              (-2.5, 7), (0.3, 3), (1.96, 1e6)]:
    print(x, df, repr(stats.t.cdf(x, df)))
