package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// buildVersion is the version a release or the GitHub Action stamps into
// the binary with -ldflags "-X main.buildVersion=v1.2.3"; empty otherwise.
var buildVersion string

// version names what this binary was built from: the stamped version, the
// module version (a release tag, or the pseudo-version that go build since
// Go 1.24 derives from the git checkout and that holds the revision), or
// the VCS revision. A build without any of these (-buildvcs=false, a git
// worktree, a source tarball) says so, naming the revision of the checkout
// it was compiled in when git can still tell.
func version() string {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(buildVersion, bi, sourceRevision)
}

// versionOf is version with its inputs given, for tests.
func versionOf(stamped string, bi *debug.BuildInfo, sourceRev func() string) string {
	if stamped != "" {
		return stamped
	}
	if bi != nil {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			return v
		}
		var rev string
		var modified bool
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if rev != "" {
			if len(rev) > 12 {
				rev = rev[:12]
			}
			if modified {
				rev += "+dirty"
			}
			return "devel " + rev
		}
	}
	if rev := sourceRev(); rev != "" {
		return "devel, not stamped by the build (-buildvcs=false?); its source checkout is at " + rev
	}
	return "devel, built without version information (go build in a git checkout, or go install ...@VERSION, records it)"
}

// sourceRevision asks git for the revision of the checkout this file was
// compiled from, when the binary was built from a checkout that still
// exists (not with -trimpath). It is only called for --version.
func sourceRevision() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "git", "-C", filepath.Dir(file), "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
