package main

import (
	"go/build"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/profdiff/profdiff"

// allowed lists, for each package of the module, the packages outside the
// standard library it may import. Imports run one way: cmd -> report ->
// diff -> analyze, cmd -> tui -> report, and cmd -> symbolicate -> analyze
// and sourcemap; report (the renderers of a comparison) reads diff (the
// comparison), and diff never imports report, nor any renderer; analyze
// and sourcemap import no other profdiff package but internal/jsonscan,
// which imports none (nor does internal/jsonwrite, the JSON writer of
// report and flamegraph), and analyze internal/confine, the one reader of
// the files that profiles and maps name (it imports none either); symbolicate and diff never import each other,
// only tui imports the Charm libraries, and only analyze/pprof.go imports
// github.com/google/pprof/profile to read, and export/pprof.go to write
// (the library checks the profile it writes). internal/termtext measures
// the display width of cells with displaywidth, which the Charm libraries
// use too; it, internal/units and stats (the statistics) import no
// profdiff package.
// history (the store of commits' records and their change points) reads
// analyze, diff's names and stats' change points, and decodes records
// with internal/jsonscan; report renders it.
// analyze/analyzetest builds tables for tests only, from analyze (as
// net/http/httptest beside net/http), so that internal/ imports nothing
// above it. record (profdiff record's
// runs) only starts processes and writes files: it reads no profile, and
// judges the runs' wall times with stats; it waits for a run's exit
// without reaping it through golang.org/x/sys/unix (Linux's waitid).
// side (a side as one value, and the stage that reads the sides' runs)
// reads profiles, maps them and aggregates them; it reads record's
// names of a recording's files, and never the network (a server query
// side is fetched by the command, through fleet).
var allowed = map[string][]string{
	"internal/jsonscan":   {},
	"internal/confine":    {},
	"internal/jsonwrite":  {},
	"internal/termtext":   {"github.com/clipperhouse/displaywidth"},
	"internal/units":      {},
	"analyze/analyzetest": {module + "/analyze"},
	"analyze":             {module + "/internal/jsonscan", module + "/internal/confine", "github.com/google/pprof/profile", "google.golang.org/protobuf/encoding/protowire"},
	"diff":                {module + "/analyze", module + "/internal/units", module + "/stats"},
	"report":              {module + "/analyze", module + "/diff", module + "/history", module + "/internal/jsonwrite", module + "/internal/termtext", module + "/internal/units"},
	"sourcemap":           {module + "/internal/jsonscan"},
	"symbolicate":         {module + "/analyze", module + "/sourcemap", module + "/internal/confine"},
	"tui":                 {module + "/analyze", module + "/diff", module + "/report", module + "/internal/termtext", module + "/internal/units", "charm.land/bubbletea/v2", "charm.land/bubbles/v2/help", "charm.land/bubbles/v2/key", "charm.land/lipgloss/v2", "github.com/charmbracelet/x/ansi"},
	"export":              {module + "/analyze", module + "/diff", module + "/internal/termtext", "github.com/google/pprof/profile"},
	"flamegraph":          {module + "/diff", module + "/report", module + "/internal/termtext", module + "/internal/jsonwrite"},
	"history":             {module + "/analyze", module + "/diff", module + "/internal/confine", module + "/internal/jsonscan", module + "/stats"},
	"narrow":              {module + "/analyze"},
	"fleet":               {module + "/analyze", "google.golang.org/protobuf/encoding/protowire"},
	"stats":               {},
	"record":              {module + "/stats", "golang.org/x/sys/unix"},
	"side":                {module + "/analyze", module + "/diff", module + "/internal/confine", module + "/narrow", module + "/record", module + "/symbolicate", "golang.org/x/sync/errgroup"},
	"cmd/profdiff":        {module + "/analyze", module + "/internal/confine", module + "/diff", module + "/history", module + "/report", module + "/internal/termtext", module + "/internal/units", module + "/export", module + "/flamegraph", module + "/narrow", module + "/symbolicate", module + "/tui", module + "/record", module + "/fleet", module + "/side", "github.com/spf13/pflag", "github.com/charmbracelet/x/term", "golang.org/x/sync/errgroup", "golang.org/x/sys/unix"},
}

// forbiddenStd are standard packages no profdiff package may import:
// nothing profdiff does needs the network, except fleet's queries to the
// profiling servers a side names.
var forbiddenStd = []string{"net", "net/http", "net/rpc", "net/smtp", "crypto/tls"}

func TestImportDirections(t *testing.T) {
	for dir, allow := range allowed {
		pkg, err := build.ImportDir(filepath.Join("..", "..", dir), 0)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, imp := range pkg.Imports {
			if slices.Contains(forbiddenStd, imp) && !(dir == "fleet" && imp == "net/http") { // fleet alone asks servers the user named
				t.Errorf("%s imports %s: profdiff never touches the network", dir, imp)
			}
			if !strings.Contains(strings.SplitN(imp, "/", 2)[0], ".") {
				continue // standard library
			}
			if !slices.Contains(allow, imp) {
				t.Errorf("%s imports %s, which it may not (allowed: %v)", dir, imp, allow)
			}
		}
	}
	// Only analyze/pprof.go reads pprof (its tests may check against it).
	dir := filepath.Join("..", "..", "analyze")
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, path := range files {
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if strings.Trim(imp.Path.Value, `"`) == "github.com/google/pprof/profile" && filepath.Base(path) != "pprof.go" && !strings.HasSuffix(path, "_test.go") {
				t.Errorf("%s imports the pprof package; only analyze/pprof.go may", path)
			}
		}
	}
}

// TestNoRPCLibraryInTheBinary: the binary speaks Connect's JSON protocol
// to Pyroscope over net/http; the api module's Connect client, gRPC and
// the protobuf runtime (13 MB of binary and 5-6 MiB of every run's peak memory,
// issue 46) are linked into fleet's tests only.
func TestNoRPCLibraryInTheBinary(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	heavy := regexp.MustCompile(`^(connectrpc\.com/|google\.golang\.org/grpc|github\.com/grafana/pyroscope|google\.golang\.org/protobuf/(proto|reflect/protoreflect|encoding/protojson)$)`)
	for _, p := range strings.Fields(string(out)) {
		if heavy.MatchString(p) {
			t.Errorf("profdiff links %s", p)
		}
	}
}

// TestNoDialerInTheBinary builds profdiff and reads its symbol table:
// nothing that could listen for connections may be linked in, and the
// client side of the network (net/http, TLS, dialers) only together with
// package fleet, which asks the profiling servers a side names (issue 46;
// TestImportDirections keeps net/http out of every other package). (pflag
// imports package net for its IP flags; the linker keeps only the IP
// parsing.)
func TestNoDialerInTheBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "profdiff")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Skipf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command("go", "tool", "nm", bin).Output()
	if err != nil {
		t.Skipf("go tool nm: %v", err)
	}
	bad := regexp.MustCompile(`\s(net/rpc\.|net/smtp\.|net\.Listen|net/http\.\(\*Server\)\.Serve|net/http\.ListenAndServe)`)
	client := regexp.MustCompile(`\s(net/http\.|crypto/tls\.|net\.\(\*Dialer\)|net\.Dial|net\.\(\*sysDialer\)|net\.socket|net\.\(\*netFD\)\.connect)`)
	if !strings.Contains(string(out), " github.com/profdiff/profdiff/fleet.") {
		bad = regexp.MustCompile(bad.String() + "|" + client.String())
	}
	for _, line := range strings.Split(string(out), "\n") {
		if bad.MatchString(line) {
			t.Errorf("the binary links %s", strings.TrimSpace(line))
		}
	}
}
