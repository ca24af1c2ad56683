// Package symbolicate maps the frames of bundled, minified JavaScript back to
// their original functions, files and packages through the build's source
// maps: it finds each generated script's map (explicit pairs, the script's
// sourceMappingURL comment, a .map beside it, search folders), decodes it with
// package sourcemap and rewrites the interned frames of an analyze.Profile in
// place.
// Its cost is per unique frame, never per sample, and it never touches the
// network: http(s) map URLs are only ever mapped to local files.
package symbolicate
