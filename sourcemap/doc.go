// Package sourcemap decodes source maps per ECMA-426
// (https://tc39.es/ecma426/), regular and index maps, and answers position
// lookups: for a generated line and column, the original source, line,
// column and name.
//
// Parse validates the whole map in one pass (JSON syntax, field types,
// every VLQ of "mappings") but keeps only the raw "mappings" string(s), the
// decoded sources and names, the raw sourcesContent entries and, every
// checkpointEvery bytes of mappings, the decoder state at a line start. No
// table of mappings is ever built: Lookup re-decodes the mappings in one
// streaming pass, jumping over unrequested lines by checkpoint, and keeps a
// few slots per distinct query.
package sourcemap
