package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// commitPattern is what profdiff's --commit and --base-commit accept.
var commitPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

// previousComment fetches the body of the pull request's comment that
// starts with this comparison's marker, writes it into the report
// directory and returns its path for profdiff's --previous; "" when there
// is none, when this is not a pull request, when no comment is wanted, or
// when it cannot be read (a warning: the comparison goes on without it).
// Reading comments needs no write access, so a fork's pull request gets
// its earlier results too (for the workflow_run workflow to post).
func (e environment) previousComment(cfg config, m meta) string {
	if m.PR <= 0 || cfg.comment == "never" {
		return ""
	}
	if !repoPattern.MatchString(m.Repository) {
		e.warnf("cannot read the earlier comment: repository %q is malformed; comparing without it", m.Repository)
		return ""
	}
	if e.getenv("GH_TOKEN") == "" {
		e.warnf("no token to read the earlier comment of #%d; comparing without it", m.PR)
		return ""
	}
	gh := ghClient{repo: m.Repository, stderr: e.stderr}
	c, err := gh.find(m.PR, marker(cfg.name))
	if err != nil {
		e.warnf("reading the earlier comment of #%d: %v; comparing without it", m.PR, err)
		return ""
	}
	if c.ID == 0 {
		return ""
	}
	path := filepath.Join(cfg.dir, "previous-comment.md")
	if err := os.WriteFile(path, []byte(c.Body), 0o644); err != nil {
		e.warnf("saving the earlier comment: %v; comparing without it", err)
		return ""
	}
	return path
}

// rejected reports whether profdiff's error names one of the flags given
// (--commit=SHA …): a profdiff without them, or a comment it cannot read.
func rejected(stderr string, given []string) bool {
	for _, f := range flagNames(given) {
		if strings.Contains(stderr, strings.TrimPrefix(f, "-")) {
			return true
		}
	}
	return false
}

// flagNames keeps the names of --flag=value arguments.
func flagNames(args []string) []string {
	var out []string
	for _, a := range args {
		name, _, _ := strings.Cut(a, "=")
		out = append(out, name)
	}
	return out
}

// secretVariables are the credentials a step's environment may hold,
// which profdiff, reading profiles a pull request made, is never given.
var secretVariables = []string{"GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN",
	"INPUT_TOKEN", "ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_URL"}

// withoutSecrets is environ (KEY=VALUE entries) without secretVariables.
func withoutSecrets(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		secret := false
		for _, s := range secretVariables {
			if strings.EqualFold(k, s) {
				secret = true
			}
		}
		if !secret {
			out = append(out, kv)
		}
	}
	return out
}
