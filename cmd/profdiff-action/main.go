// Command profdiff-action is the logic of profdiff's GitHub Action
// (action.yml at the repository root). It reads the action's inputs from
// INPUT_* environment variables, never from interpolated script text, and
// the workflow's context from GitHub's GITHUB_* variables and event payload.
//
//	profdiff-action compare   run profdiff once (markdown and JSON), write the
//	                          job summary, the step outputs and the comment;
//	                          the pull request's earlier comment, read through
//	                          gh api, is profdiff's --previous
//	profdiff-action post      create or edit the pull request's comment that
//	                          starts with <!-- profdiff: NAME --> through gh api
//	profdiff-action history   on a push to the default branch, record the head's
//	                          profiles (profdiff history add) on the history
//	                          branch, in a temporary worktree
//
// compare writes everything a later step needs into a report directory
// (report.md, report.json, comment.md, meta.json, and report.html when asked
// for), so that a pull request from a fork, whose token cannot comment, can
// upload that directory as an artifact for a workflow_run workflow to post
// with "post". profdiff itself has no network code; the comment goes
// through the gh CLI that GitHub's runners have.
//
// inputs.go reads the action's inputs, compare.go runs profdiff,
// comment.go writes the comment's header, footer and cut, outputs.go the
// step outputs and files, previous.go reads the earlier comment and keeps
// the tokens from profdiff, post.go posts the comment through github.go's
// client, event.go and report.go read the event payload and profdiff's JSON.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

// run dispatches on the subcommand and returns the exit status.
func run(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: profdiff-action compare|post|history (inputs come from INPUT_* environment variables)")
		return 2
	}
	env := environment{getenv: getenv, stdout: stdout, stderr: stderr}
	switch args[0] {
	case "compare":
		return env.compare()
	case "post":
		return env.post()
	case "history":
		return env.history()
	}
	fmt.Fprintf(stderr, "profdiff-action: unknown command %q: use compare, post or history\n", args[0])
	return 2
}
