package main

import "github.com/profdiff/profdiff/analyze"

// advise adds to each warning how to act on it with profdiff's own flags:
// the libraries say what happened, and only the command knows its flags.
func advise(ws []analyze.Warning) {
	for i := range ws {
		ws[i].Advice = advice(ws[i].Kind)
	}
}

// advice is what the reports append to a warning of the given kind,
// leading punctuation included; "" when there is no flag to point at.
func advice(k analyze.WarningKind) string {
	switch k {
	case analyze.WarnThreadChosen:
		return " (see --list, pick with --thread)"
	case analyze.WarnThreadIgnored:
		return " (--thread)"
	case analyze.WarnSampleTypeIgnored:
		return " (--sample-type)"
	case analyze.WarnMapOtherBuild:
		return "; give this side's maps with --sourcemaps"
	case analyze.WarnMapRemote:
		return "; map it to a local folder with --path-map or --sourcemaps"
	case analyze.WarnMapOutside:
		return "; add its folder with --source-root, or name the map with --sourcemap"
	case analyze.WarnScriptOutside:
		return "; if the script there is the build profiled, add its folder with --source-root; else point --sourcemaps at this build's maps"
	case analyze.WarnMinifiedUnmapped:
		return ": point --sourcemaps at the folder holding each script and its .map if it has one"
	case analyze.WarnNoSourceMap:
		return ": point --sourcemaps at the folder holding the bundle and its .map, or name it with --sourcemap SCRIPT=MAP"
	case analyze.WarnDurationsDiffer:
		return ": if they did different amounts of work, give it with --work-before and --work-after"
	}
	return ""
}
