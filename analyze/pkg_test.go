package analyze

import (
	"github.com/profdiff/profdiff/internal/confine"

	"os"
	"path/filepath"
	"testing"
)

func TestScriptPackages(t *testing.T) {
	n := newPackageNamer(nil)
	cases := []struct{ url, want string }{
		{"file:///srv/app/node_modules/lodash/lodash.js", "lodash"},
		{"/srv/app/node_modules/@babel/core/lib/index.js", "@babel/core"},
		{"/srv/app/node_modules/ajv/node_modules/fast-uri/index.js", "fast-uri"},
		{"/srv/app/node_modules/.pnpm/path-to-regexp@8.2.0/node_modules/path-to-regexp/dist/index.js", "path-to-regexp"},
		{"/srv/app/node_modules/.pnpm/@scope+pkg@1.0.0/node_modules/@scope/pkg/index.js", "@scope/pkg"},
		{"webpack://app/./node_modules/react-dom/cjs/react-dom.production.js", "react-dom"},
		{"node:internal/timers", "node"},
		{"node:fs", "node"},
		{"internal/bootstrap/node.js", "node"}, // Node before node: URLs
		{"bootstrap_node.js", "node"},
		{"native array.js", "(native)"},
		{"", "(native)"},
		{"/srv/node-workload/deploy/src/router.js", "deploy"},
		{"/Users/alanpierce/code/sucrase/build/src/index.js", "sucrase"},
		{"/srv/large-tsc/dist/tsc.min.js", "large-tsc"},
		{"http://127.0.0.1:46355/dist/app.min.js", PackageApp},
		{"https://example.com/static/js/main.js", "js"},
		{"/Users/jlfwong/code/speedscope/sample/programs/javascript/simple.js", "javascript"},
		{"/app/test.js", "app"},
		{"simple.js", "node"},
	}
	for _, c := range cases {
		if got := n.script(c.url); got != c.want {
			t.Errorf("script(%q) = %q, want %q", c.url, got, c.want)
		}
	}
}

func TestGoPackage(t *testing.T) {
	cases := []struct{ name, want string }{
		{"runtime.mallocgc", "runtime"},
		{"runtime.gcBgMarkWorker.func2", "runtime"},
		{"encoding/json.(*decodeState).object", "encoding/json"},
		{"example.com/routerbench.(*Router).Match", "example.com/routerbench"},
		{"github.com/a/b/c.F", "github.com/a/b/c"},
		{"gopkg.in/yaml.v3.Marshal", "gopkg.in/yaml.v3"},
		{"gopkg.in/yaml.v3.(*parser).parse", "gopkg.in/yaml.v3"},
		{"slices.SortFunc[go.shape.struct { example.com/x.A }]", "slices"},
		{"internal/sync.(*HashTrieMap[go.shape.interface {},go.shape.interface {}]).Load", "internal/sync"},
		{"main.main", "main"},
		{"_cgo_topofstack", "(native)"},
	}
	for _, c := range cases {
		if got := GoPackage(c.name); got != c.want {
			t.Errorf("GoPackage(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestWorkspacePackageFromPackageJSON(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "packages", "billing")
	os.MkdirAll(filepath.Join(ws, "src", "lib"), 0o755)
	os.WriteFile(filepath.Join(ws, "package.json"), []byte(`{"name":"@acme/billing","version":"1.0.0"}`), 0o644)
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"private":true}`), 0o644)
	// Below the folders given only: another folder reads no package.json.
	if got := newPackageNamer(confine.New(t.TempDir())).script(filepath.Join(ws, "src", "lib", "invoice.js")); got == "@acme/billing" {
		t.Errorf("a package.json outside the folders given was read")
	}
	n := newPackageNamer(confine.New(dir))
	file := filepath.Join(ws, "src", "lib", "invoice.js")
	if got := n.script("file://" + file); got != "@acme/billing" {
		t.Errorf("got %q, want the nearest package.json's name", got)
	}
	// Cached per directory: a second file in the same tree needs no read.
	if got := n.script(filepath.Join(ws, "src", "x.js")); got != "@acme/billing" {
		t.Errorf("got %q", got)
	}
	// Without a named package.json above, the path decides.
	other := filepath.Join(dir, "tools", "src", "gen.js")
	if got := n.script(other); got != "tools" {
		t.Errorf("got %q, want the directory above src/", got)
	}
	if got := newPackageNamer(nil).script(file); got != "billing" {
		t.Errorf("without disk reads: got %q, want billing", got)
	}
}

// TestNodeScript: one predicate for Node's own scripts, which package
// attribution and symbolication share (they disagreed on internal/timers.js).
func TestNodeScript(t *testing.T) {
	for url, want := range map[string]bool{
		"node:internal/timers":   true,
		"internal/timers.js":     true,
		"bootstrap_node.js":      true,
		"/srv/app/internal/x.js": false,
		"file:///srv/app/a.js":   false,
		"native array.js":        false,
		"node_modules/x/y.js":    false,
		"":                       false,
	} {
		if got := NodeScript(url); got != want {
			t.Errorf("%q: %v", url, got)
		}
	}
}

// TestPackagesBelowCheckoutRoot: two checkouts of one program without a
// package.json (old/ and new/) name their code alike below their roots,
// where the checkout's own folder would otherwise name it (old, new).
func TestPackagesBelowCheckoutRoot(t *testing.T) {
	for _, tc := range []struct {
		file, root, want string
	}{
		{"/w/old/main.js", "", "old"},
		{"/w/old/main.js", "/w/old/", PackageApp},
		{"/w/new/main.js", "/w/new/", PackageApp},
		{"/w/old/src/router.js", "/w/old/", PackageApp},
		{"/w/old/lib/x.js", "/w/old/", PackageApp},
		{"/w/old/tools/x.js", "/w/old/", "tools"},
		{"/w/old/packages/api/src/x.js", "/w/old/", "api"},
		{"/w/old/node_modules/lodash/x.js", "/w/old/", "lodash"},
		{"/elsewhere/tool/x.js", "/w/old/", "tool"},
		{"file:///w/old/main.js", "/w/old/", PackageApp},
	} {
		p := &Profile{Frames: []Frame{{Kind: KindCode, Name: "f", File: tc.file}}}
		AttributePackagesBelow(p, nil, tc.root)
		if got := p.Frames[0].Package; got != tc.want {
			t.Errorf("%s below %q: package %q, want %q", tc.file, tc.root, got, tc.want)
		}
	}
}
