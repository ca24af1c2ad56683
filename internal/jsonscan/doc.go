// Package jsonscan reads JSON without building a tree of values: a streaming
// pull scanner for profiles of hundreds of megabytes, a validating walker
// over JSON held in memory, the in-buffer primitives of the readers' fast
// paths, and the one string unescaper they all share. Strings and raw values
// it returns alias its input or buffer rather than being copied.
package jsonscan
