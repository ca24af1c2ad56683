package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The limit GitHub sets: a comment holds at most 65,536 characters (a job
// summary, which gets the same text, 1 MiB). The budget leaves room for
// the header, the footer and the artifact link.
const (
	commentLimit  = 65536
	commentBudget = commentLimit - 2048
)

// artifactPlaceholder marks where the post step links the uploaded report.
const artifactPlaceholder = "<!-- profdiff-artifact-link -->"

// meta is what a later step (or a workflow_run workflow) needs to post the
// comment; compare writes it as meta.json in the report directory.
type meta struct {
	Name       string `json:"name"`
	Comment    string `json:"comment"` // always, on-change or never
	Changed    bool   `json:"changed"`
	Status     int    `json:"status"`
	PR         int    `json:"pr"`
	Repository string `json:"repository"`
	BaseSHA    string `json:"base_sha,omitempty"`
	HeadSHA    string `json:"head_sha,omitempty"`
	ReadOnly   bool   `json:"read_only"` // a fork's pull request: the token cannot comment
	// BaseRecord says the base is the history's record of BaseSHA, not
	// profiles.
	BaseRecord bool `json:"base_record,omitempty"`
}

// marker is the hidden first line that identifies a comment.
func marker(name string) string { return "<!-- profdiff: " + name + " -->" }

// sanitizeInline keeps a value from breaking out of inline markdown.
func sanitizeInline(s string) string {
	return strings.NewReplacer("`", "'", "<", "&lt;", ">", "&gt;", "\n", " ", "\r", " ", "|", "\\|").Replace(s)
}

// runURL links the workflow run.
func (e environment) runURL() string {
	server, repo, id := e.getenv("GITHUB_SERVER_URL"), e.getenv("GITHUB_REPOSITORY"), e.getenv("GITHUB_RUN_ID")
	if server == "" || !repoPattern.MatchString(repo) || !regexp.MustCompile(`^[0-9]+$`).MatchString(id) {
		return ""
	}
	return server + "/" + repo + "/actions/runs/" + id
}

// shaPattern is a commit hash.
var shaPattern = regexp.MustCompile(`^[0-9a-f]{7,64}$`)

// header names the commits compared and the runs on each side, and the
// headline verdict.
func header(m meta, rep *jsonReport, server string) string {
	commit := func(sha string) string {
		if !shaPattern.MatchString(sha) {
			if sha == "" {
				return "?"
			}
			return "`" + sanitizeInline(sha) + "`"
		}
		short := sha
		if len(short) > 7 {
			short = short[:7]
		}
		if server != "" && repoPattern.MatchString(m.Repository) {
			return fmt.Sprintf("[`%s`](%s/%s/commit/%s)", short, server, m.Repository, sha)
		}
		return "`" + short + "`"
	}
	runs := [2]int{}
	if rep != nil && len(rep.Sides) == 2 {
		runs = [2]int{rep.Sides[0].Runs, rep.Sides[1].Runs}
	}
	plural := func(n int) string {
		if n == 1 {
			return "1 run"
		}
		return strconv.Itoa(n) + " runs"
	}
	base := "base"
	if m.BaseRecord {
		base = "base: its record in the history"
	}
	// The verdict, its counts and p-value are the report's first line;
	// the header only says what was compared.
	h := fmt.Sprintf("**profdiff** compared %s (%s, %s) with %s (head, %s)", commit(m.BaseSHA), base, plural(runs[0]), commit(m.HeadSHA), plural(runs[1]))
	if rep != nil {
		if b := rep.broken(); len(b) > 0 {
			h += fmt.Sprintf(": %d rule(s) broken", len(b))
		}
	}
	return h + "\n"
}

// runsNote says, when a large change is not significant yet, how many
// runs a side would settle it and how to ask for them: the runs input
// (and the loop of the workflow that makes the runs); and when a side
// has fewer runs than the input says the workflow makes. "" otherwise.
func runsNote(rep *jsonReport, runs int) string {
	if rep == nil {
		return ""
	}
	var notes []string
	if runs > 0 {
		for _, s := range rep.Sides {
			if s.Runs < runs {
				notes = append(notes, fmt.Sprintf("The %s side has %d run(s) where the `runs` input says %d: did a run fail?", sanitizeInline(s.Name), s.Runs, runs))
			}
		}
	}
	if n := rep.runsNeeded(); n > 0 {
		switch {
		case runs > 0 && n > runs:
			notes = append(notes, fmt.Sprintf("To settle the change the report names, make about %d runs a side: set this step's `runs` input to %d (now %d), and the loop that makes the runs with it.", n, n, runs))
		case runs == 0:
			notes = append(notes, fmt.Sprintf("To settle the change the report names, make about %d runs a side, and give the action the `runs` input (the runs a side the workflow makes, as in the action's examples/github workflows).", n))
		}
	}
	if len(notes) == 0 {
		return ""
	}
	return "\n> " + strings.Join(notes, " ") + "\n"
}

// footer names the profdiff build and links the run.
func footer(version, runURL string, notes []string) string {
	var b strings.Builder
	for _, n := range notes {
		fmt.Fprintf(&b, "\n> %s\n", sanitizeInline(n))
	}
	fmt.Fprintf(&b, "\n---\n<sub>profdiff %s", version)
	if runURL != "" {
		fmt.Fprintf(&b, " · [workflow run](%s)", runURL)
	}
	b.WriteString("</sub>\n")
	return b.String()
}

// cut keeps markdown under budget bytes (a byte is at most a character),
// cutting at a line, closing the <details> blocks the cut left open, and
// saying what was cut and where the rest is.
func cut(md string, budget int, rest string) string {
	if len(md) <= budget {
		return md
	}
	note := fmt.Sprintf("\n\n_Cut at %%d of %d bytes to stay under GitHub's limit; %s._\n", len(md), rest)
	keep := budget - len(note) - 64 - 16*strings.Count(md, "<details>")
	if keep < 0 {
		keep = 0
	}
	s := md[:keep]
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[:i+1]
	} else {
		s = ""
	}
	for open := strings.Count(s, "<details>") - strings.Count(s, "</details>"); open > 0; open-- {
		s += "\n</details>\n"
	}
	return s + fmt.Sprintf(note, len(s))
}
