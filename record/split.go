package record

import (
	"fmt"
	"strings"
)

// Split splits a command line into words the way a shell splits plain
// words and quotes, and does nothing else: no variables, no command
// substitution, no globbing, no redirection. "$(touch x)" is one word, not
// a command. It is the rule the GitHub Action's args input follows; a
// command that needs a shell asks for one itself (sh -c '...').
func Split(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("%q: unclosed %c quote", s, quote)
	}
	if inWord {
		out = append(out, cur.String())
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%q: an empty command", s)
	}
	return out, nil
}
