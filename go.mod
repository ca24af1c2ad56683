module github.com/profdiff/profdiff

go 1.26.8

require (
	github.com/google/pprof v0.0.0-20261105003125-4bf881d7fb0b
	github.com/spf13/pflag v1.1.0
)

require github.com/yuin/goldmark v1.8.7
