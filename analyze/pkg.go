package analyze

import (
	"github.com/profdiff/profdiff/internal/confine"

	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Package names that do not come from code.
const (
	PackageGC      = "(gc)"
	PackageNative  = "(native)"
	PackageNode    = "node"
	PackageIdle    = "(idle)"
	PackageProgram = "(program)"
	PackageRoot    = "(root)"
	// PackageUnknown is the package of a folded-stack frame whose name
	// says none.
	PackageUnknown = "(unknown)"
	// PackageApp is the package of code a development server on this
	// machine serves from the project's own folders (/src/, /dist/).
	PackageApp = "app"
)

// packageNamer attributes frames to packages. It reads package.json files
// on disk to name workspace code, caching one answer per directory.
type packageNamer struct {
	// files reads package.json files, below the folders the user gave
	// only; nil skips the disk (tests, or input from another machine
	// where the paths mean nothing here).
	files *confine.Reader
	dirs  map[string]string
	// root is the checkout the profile was run from ("" for none): see
	// AttributePackagesBelow.
	root string
}

func newPackageNamer(files *confine.Reader) *packageNamer {
	return &packageNamer{files: files, dirs: map[string]string{}}
}

// maxPackageJSON caps a package.json read for its name.
const maxPackageJSON = 1 << 20

// frame returns the package of a frame, or "" for kinds that take their
// caller's package (regular expressions, eval code).
func (n *packageNamer) frame(f *Frame) string {
	if f.Package != "" {
		return f.Package
	}
	switch f.Kind {
	case KindGC:
		return PackageGC
	case KindIdle:
		return PackageIdle
	case KindProgram:
		return PackageProgram
	case KindRoot:
		return PackageRoot
	case KindNative:
		return PackageNative
	case KindRegExp, KindEval:
		return ""
	}
	if f.Go {
		if pkg := GoPackage(f.Name); pkg != PackageNative || f.File == "" {
			return pkg
		}
		// Assembly (memeqbody, gcWriteBarrier) has no package qualifier:
		// its file says whose it is.
		return goFilePackage(f.File)
	}
	if f.Generated != nil {
		return n.original(f.File, f.Generated.File)
	}
	return n.script(f.File)
}

// original returns the package of a source that a source map named for code
// in the bundle gen: an npm package when the source lies in node_modules,
// the nearest package.json's name when the source is on disk, and otherwise
// the bundle's own package (code the app bundled from its own tree).
func (n *packageNamer) original(file, gen string) string {
	if i := strings.LastIndex(file, "node_modules/"); i >= 0 && (i == 0 || file[i-1] == '/') {
		return npmName(file[i+len("node_modules/"):])
	}
	if n.files != nil {
		abs := file
		if !filepath.IsAbs(abs) {
			if wd, err := os.Getwd(); err == nil {
				abs = filepath.Join(wd, abs)
			}
		}
		if n.files.Exists(abs) {
			if name := n.packageJSONName(filepath.Dir(abs)); name != "" {
				return name
			}
		}
	}
	return n.script(gen)
}

// GoPackage returns the import path of a Go function name:
// "github.com/a/b.(*T).M" gives "github.com/a/b", "runtime.mallocgc" gives
// "runtime", "encoding/json.Unmarshal" gives "encoding/json". A name with no
// package qualifier gives "(native)".
func GoPackage(name string) string {
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i] // type arguments may hold other import paths
	}
	slash := strings.LastIndexByte(name, '/')
	rest := name[slash+1:]
	dot := strings.IndexByte(rest, '.')
	// A versioned last element such as gopkg.in/yaml.v3 keeps its ".vN".
	if dot >= 0 && dot+2 < len(rest) && rest[dot+1] == 'v' && isDigit(rest[dot+2]) {
		end := dot + 2
		for end < len(rest) && isDigit(rest[end]) {
			end++
		}
		if end < len(rest) && rest[end] == '.' {
			dot = end
		}
	}
	if dot <= 0 {
		return PackageNative
	}
	return name[:slash+1+dot]
}

// goFilePackage returns the import path of a Go source file's package from
// its path: below GOROOT's src/ ("/usr/local/go/src/internal/bytealg/
// equal_amd64.s" gives "internal/bytealg"), below the module cache with
// the version left out ("…/pkg/mod/golang.org/x/sys@v0.1.0/cpu/x.s" gives
// "golang.org/x/sys/cpu"), else the directory's name.
func goFilePackage(file string) string {
	file = strings.ReplaceAll(file, "\\", "/")
	dir := file[:max(strings.LastIndexByte(file, '/'), 0)]
	if i := strings.LastIndex(dir, "/pkg/mod/"); i >= 0 {
		rest := dir[i+len("/pkg/mod/"):]
		if at := strings.IndexByte(rest, '@'); at >= 0 {
			if slash := strings.IndexByte(rest[at:], '/'); slash >= 0 {
				return rest[:at] + rest[at+slash:]
			}
			return rest[:at]
		}
		return rest
	}
	if i := strings.LastIndex(dir, "/src/"); i >= 0 {
		return dir[i+len("/src/"):]
	}
	if dir == "" {
		return PackageNative
	}
	return dir[strings.LastIndexByte(dir, '/')+1:]
}

// servedAssets are folder names a dev server serves built code from, which
// name no part of the project.
var servedAssets = map[string]bool{"static": true, "assets": true, "js": true, "public": true, "scripts": true, "chunks": true}

// NodeScript reports whether a script URL is Node's own: a node: URL, or
// the bare relative names Node used before them (bootstrap_node.js,
// internal/timers.js). Node ships them without source maps. Package
// attribution and symbolication ask the same question here.
func NodeScript(url string) bool {
	if strings.HasPrefix(url, "node:") {
		return true
	}
	if strings.Contains(url, ":") || strings.HasPrefix(url, "/") || strings.Contains(url, "\\") || strings.HasPrefix(url, "native ") || url == "" {
		return false
	}
	return !strings.Contains(url, "/") || strings.HasPrefix(url, "internal/")
}

// devServer reports whether a URL's host is this machine (a development
// server): localhost, a loopback address or 0.0.0.0, with or without a port.
func devServer(host string) bool {
	h := host
	if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.HasSuffix(h, "]") {
		h = h[:i]
	}
	h = strings.Trim(h, "[]")
	return h == "localhost" || strings.HasSuffix(h, ".localhost") || strings.HasPrefix(h, "127.") || h == "::1" || h == "0.0.0.0"
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// markers are directory names that usually sit directly below a project's
// root; the directory above the first of them names app code that has no
// package.json to read.
var markers = map[string]bool{"src": true, "lib": true, "dist": true, "build": true, "out": true, "bin": true, "test": true, "tests": true}

// script returns the package of JavaScript at a script URL or path.
//
//   - node:* (and the bare names of old Node versions' own scripts) give
//     "node";
//   - a path through node_modules gives the package after the last
//     node_modules/ (with its @scope), which also covers pnpm's
//     .pnpm/<name>@<ver>/node_modules/<name>/ layout;
//   - other code gives the "name" of the nearest package.json above it on
//     disk, when there is one;
//   - else the directory above the first src/, lib/, dist/, build/, out/,
//     bin/ or test(s)/ segment (a URL's host when that is all there is above),
//     or the file's own directory when there is no such segment.
func (n *packageNamer) script(url string) string {
	if url == "" {
		return PackageNative
	}
	if strings.HasPrefix(url, "native ") {
		return PackageNative // V8's natives
	}
	if NodeScript(url) {
		return PackageNode
	}
	if i := strings.LastIndex(url, "node_modules/"); i >= 0 && (i == 0 || url[i-1] == '/') {
		return npmName(url[i+len("node_modules/"):])
	}
	scheme, rest := splitScheme(url)
	if (scheme == "" || scheme == "file") && n.files != nil && filepath.IsAbs(rest) {
		if name := n.packageJSONName(filepath.Dir(rest)); name != "" {
			return name
		}
	}
	if n.root != "" && (scheme == "" || scheme == "file") {
		if rel := Relative(rest, n.root); rel != rest {
			// Named from the path below the checkout: the checkout's
			// own folder (old/, new/) names nothing.
			const checkout = "\x00"
			if name := pathPackage("", checkout+"/"+rel); name != checkout {
				return name
			}
			return PackageApp
		}
	}
	return pathPackage(scheme, rest)
}

// splitScheme separates "http://host/a/b.js" into "http" and "host/a/b.js";
// paths (and Windows drive letters) have no scheme.
func splitScheme(u string) (string, string) {
	i := strings.Index(u, "://")
	if i <= 1 || strings.ContainsAny(u[:i], "/\\") {
		return "", u
	}
	return u[:i], u[i+3:]
}

// npmName returns "name" or "@scope/name" from the path that follows a
// node_modules/ segment.
func npmName(rest string) string {
	parts := strings.SplitN(rest, "/", 3)
	if len(parts) >= 2 && strings.HasPrefix(parts[0], "@") {
		return parts[0] + "/" + parts[1]
	}
	if parts[0] == "" {
		return PackageNative
	}
	return parts[0]
}

// pathPackage names app code from its path when no package.json does.
func pathPackage(scheme, rest string) string {
	rest = strings.ReplaceAll(rest, "\\", "/")
	if q := strings.IndexAny(rest, "?#"); q >= 0 {
		rest = rest[:q]
	}
	segs := strings.Split(strings.Trim(rest, "/"), "/")
	dirs := segs[:len(segs)-1]
	host := scheme != "" && scheme != "file"
	if host && len(dirs) > 0 && devServer(dirs[0]) {
		// A dev server on this machine (http://127.0.0.1:46355/src/x.js):
		// its host names nothing; the path is the project's, from its
		// root, which has no name in the URL.
		for _, d := range dirs[1:] {
			if d != "" && !markers[d] && !servedAssets[d] && !strings.HasPrefix(d, "@") && !strings.HasPrefix(d, ".") {
				return d
			}
		}
		return PackageApp
	}
	for i, d := range dirs {
		if markers[d] {
			if i > 0 {
				return dirs[i-1]
			}
			break
		}
	}
	if host && len(dirs) > 0 && (len(dirs) == 1 || markers[dirs[1]]) {
		return dirs[0] // the host, for http://host/dist/app.js
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		if d := dirs[i]; d != "" && d != "." && d != ".." {
			return d
		}
	}
	if len(segs) > 0 && segs[0] != "" {
		return path.Base(segs[0])
	}
	return PackageNative
}

// packageJSONName returns the "name" in the nearest package.json at or above
// dir, or "".
func (n *packageNamer) packageJSONName(dir string) string {
	var visited []string
	name := ""
	for {
		if v, ok := n.dirs[dir]; ok {
			name = v
			break
		}
		visited = append(visited, dir)
		if filepath.Base(dir) == "node_modules" {
			break
		}
		if b, err := n.files.ReadFile(filepath.Join(dir, "package.json"), maxPackageJSON); err == nil {
			var pj struct {
				Name string `json:"name"`
			}
			if json.Unmarshal(b, &pj) == nil && pj.Name != "" {
				name = pj.Name
				break
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	for _, d := range visited {
		n.dirs[d] = name
	}
	return name
}

// AttributePackages fills in the package of every frame of p that has none
// (see Frame.Package), except regular expressions and eval code, whose
// time goes to their caller's package. files (nil for none) reads
// package.json files on disk, below the folders the user gave, to name
// workspace code. It is the step after
// symbolication and before narrowing and Aggregate, which match and group
// frames by package.
func AttributePackages(p *Profile, files *confine.Reader) {
	AttributePackagesBelow(p, files, "")
}

// AttributePackagesBelow is AttributePackages for a profile run from the
// checkout root (a directory ending in "/", as --root gives it; "" for
// none): code below root that no package.json names is named from its path
// below root, and code whose name would be the checkout's own folder is
// PackageApp, so that two checkouts of one program at different paths
// (old/ and new/) name their code alike.
func AttributePackagesBelow(p *Profile, files *confine.Reader, root string) {
	namer := newPackageNamer(files)
	namer.root = root
	for i := range p.Frames {
		if f := &p.Frames[i]; f.Package == "" && !f.Kind.InheritsPackage() {
			f.Package = namer.frame(f)
		}
	}
}
