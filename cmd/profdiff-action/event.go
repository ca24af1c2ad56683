package main

import (
	"encoding/json"
	"os"
	"regexp"
)

// repoPattern is owner/name.
var repoPattern = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$`)

// event is the part of GitHub's event payload the action reads.
type event struct {
	PullRequest *struct {
		Number int    `json:"number"`
		Head   gitRef `json:"head"`
		Base   gitRef `json:"base"`
	} `json:"pull_request"`
	Before     string `json:"before"` // push
	After      string `json:"after"`
	Ref        string `json:"ref"`
	Deleted    bool   `json:"deleted"`
	HeadCommit *struct {
		ID        string `json:"id"`
		Timestamp string `json:"timestamp"`
		Message   string `json:"message"`
	} `json:"head_commit"`
	Repository *struct {
		DefaultBranch string `json:"default_branch"`
	} `json:"repository"`
	WorkflowRun *struct {
		ID             int64  `json:"id"`
		Event          string `json:"event"`
		HeadSHA        string `json:"head_sha"`
		HeadRepository *struct {
			FullName string `json:"full_name"`
		} `json:"head_repository"`
	} `json:"workflow_run"`
}

// gitRef is a pull request's head or base.
type gitRef struct {
	SHA  string `json:"sha"`
	Repo *struct {
		FullName string `json:"full_name"`
	} `json:"repo"`
}

// event reads $GITHUB_EVENT_PATH; a missing or unreadable payload is an
// empty event (no pull request).
func (e environment) event() event {
	var ev event
	if b, err := os.ReadFile(e.getenv("GITHUB_EVENT_PATH")); err == nil {
		_ = json.Unmarshal(b, &ev)
	}
	return ev
}

// pr is the pull request's number, 0 outside a pull request.
func (ev event) pr() int {
	if ev.PullRequest == nil {
		return 0
	}
	return ev.PullRequest.Number
}

// baseSHA is the commit the head is compared with.
func (ev event) baseSHA() string {
	if ev.PullRequest != nil {
		return ev.PullRequest.Base.SHA
	}
	if shaPattern.MatchString(ev.Before) && ev.Before != "0000000000000000000000000000000000000000" {
		return ev.Before
	}
	return ""
}

// headSHA is the commit under test.
func (ev event) headSHA(githubSHA string) string {
	if ev.PullRequest != nil {
		return ev.PullRequest.Head.SHA
	}
	if ev.After != "" {
		return ev.After
	}
	return githubSHA
}

// readOnly reports whether the token of this event cannot comment: a
// pull_request event (not pull_request_target) from another repository,
// a fork, or from a fork since deleted.
func (ev event) readOnly(eventName, repo string) bool {
	if ev.PullRequest == nil {
		return false
	}
	switch eventName {
	case "pull_request", "pull_request_review", "pull_request_review_comment":
	default:
		return false
	}
	head := ev.PullRequest.Head.Repo
	return head == nil || head.FullName != repo
}
