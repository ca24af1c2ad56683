package main

import "strings"

// listFlag reports whether a flag takes a list of files: "--before b1 b2
// --after a1 a2", as the usage shows and as a shell glob expands (--before
// runs/*.cpuprofile), gives each flag every word up to the next flag.
func listFlag(name string) bool { return name == "--before" || name == "--after" }

// expandListFlags rewrites the words that follow a list flag as repeated
// flags ("--before b1 b2" -> "--before b1 --before b2"), for pflag, which
// gives a flag one value each time. A word that starts with "-" (another
// flag, or "-" itself, standard input) ends the list, and "--" ends every
// flag.
func expandListFlags(args []string) []string {
	out := make([]string, 0, len(args))
	list := ""
	for _, a := range args {
		switch {
		case a == "--":
			list = ""
			out = append(out, a)
			continue
		case strings.HasPrefix(a, "-"):
			list = ""
			if name, _, _ := strings.Cut(a, "="); listFlag(name) {
				list = name // --before b1 b2, and --before=b1 b2
			}
			out = append(out, a)
			continue
		}
		if list != "" && out[len(out)-1] != list {
			out = append(out, list) // a further file of the list
		}
		out = append(out, a)
	}
	return out
}
