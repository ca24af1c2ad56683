package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// ghClient calls the GitHub API through the gh CLI (authenticated by
// GH_TOKEN), with request bodies in files so that no text from a profile
// reaches a command line.
type ghClient struct {
	repo   string
	stderr io.Writer
}

// api runs gh api with args and returns its standard output.
func (g ghClient) api(args ...string) ([]byte, error) {
	var out, errb bytes.Buffer
	cmd := exec.Command("gh", append([]string{"api"}, args...)...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("gh api %s: %v: %s", args[len(args)-1], err, oneLine(errb.String()))
	}
	return out.Bytes(), nil
}

// json gets path and decodes it into v.
func (g ghClient) json(v any, path string) error {
	b, err := g.api(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// issueComment is a pull request's comment, as the API lists it.
type issueComment struct {
	ID   int64  `json:"id"`
	Body string `json:"body"`
}

// find returns the oldest comment of the pull request whose body starts
// with the marker, or one with ID 0.
func (g ghClient) find(pr int, mark string) (issueComment, error) {
	b, err := g.api("--paginate", "repos/"+g.repo+"/issues/"+strconv.Itoa(pr)+"/comments?per_page=100")
	if err != nil {
		return issueComment{}, err
	}
	// --paginate writes one JSON array per page, one after another.
	dec := json.NewDecoder(bytes.NewReader(b))
	for {
		var page []issueComment
		if err := dec.Decode(&page); errors.Is(err, io.EOF) {
			return issueComment{}, nil
		} else if err != nil {
			return issueComment{}, fmt.Errorf("reading the comments: %v", err)
		}
		for _, c := range page {
			if strings.HasPrefix(strings.TrimSpace(c.Body), mark) {
				return c, nil
			}
		}
	}
}

// send POSTs or PATCHes {"body": text} to path and decodes the answer.
func (g ghClient) send(v any, method, path, text string) error {
	f, err := os.CreateTemp("", "profdiff-comment-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	err = json.NewEncoder(f).Encode(map[string]string{"body": text})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	b, err := g.api("--method", method, path, "--input", f.Name())
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
