package symbolicate

import (
	"cmp"
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/internal/confine"
	"github.com/profdiff/profdiff/sourcemap"
)

// Options say where source maps are looked for.
type Options struct {
	// Maps pairs a script (its URL, path or basename) with a map file,
	// overriding any other way of finding that script's map.
	Maps []ScriptMap
	// Dirs are folders searched for scripts and maps by basename (and for
	// maps by their "file" field): for profiles recorded on another machine.
	Dirs []string
	// PathMap rewrites recorded path or URL prefixes before anything else.
	PathMap []PathRewrite
	// MaxMapSize bounds the size of a map file read; 0 means 256 MiB.
	MaxMapSize int64
	// Files reads the scripts and maps that profiles and maps name, only
	// below the folders the user gave (the Dirs, the Maps' folders and the
	// PathMap targets are added to it); nil reads below those alone.
	Files *confine.Reader
}

// ScriptMap is an explicit --sourcemap SCRIPT=MAP pair.
type ScriptMap struct{ Script, Map string }

// PathRewrite is a --path-map FROM=TO prefix rewrite.
type PathRewrite struct{ From, To string }

// Symbolicator finds, decodes and applies source maps. It caches what it
// decodes, so that every profile it serves shares each map, decoded once;
// use one per side when the sides were built differently. It is safe for
// concurrent use (profiles are served one at a time).
type Symbolicator struct {
	mu      sync.Mutex
	opts    Options
	files   *confine.Reader
	maps    map[string]*loadedMap // by map location
	dirs    map[string]*dirIndex
	scripts map[string]scriptMap // by recorded script URL
}

type loadedMap struct {
	m       *sourcemap.Map
	dir     string // folder the map's relative sources resolve against
	name    string // the map's file, for messages
	err     error
	sources map[int]*sourceText
	// built is, per script the map served, the function names its
	// profiles recorded at each position (see oneBuild).
	built map[string]*builtNames
}

// builtNames are the function names recorded at each position of a script
// by the profiles a map served so far, and the first of those profiles.
type builtNames struct {
	first string
	names map[[2]int32]string
}

// source returns the content of source i with its line index, or nil.
func (lm *loadedMap) source(i int) *sourceText {
	if i < 0 {
		return nil
	}
	if st, ok := lm.sources[i]; ok {
		return st
	}
	var st *sourceText
	if text, ok := lm.m.SourceContent(i); ok {
		st = newSourceText(text)
	}
	if lm.sources == nil {
		lm.sources = map[int]*sourceText{}
	}
	lm.sources[i] = st
	return st
}

// scriptMap is what discovery found for one script.
type scriptMap struct {
	loc mapLocation
	why analyze.Warning // why no map, when loc is empty
	// built is the script file whose build was checked against the
	// profile that found the map ("" when none was): another profile
	// served by the same symbolicator is checked against it again.
	built string
}

// New returns a Symbolicator with the given options.
func New(opts Options) *Symbolicator {
	if opts.MaxMapSize <= 0 {
		opts.MaxMapSize = 256 << 20
	}
	dirs := slices.Clone(opts.Dirs)
	for _, m := range opts.Maps {
		dirs = append(dirs, filepath.Dir(m.Map))
	}
	for _, r := range opts.PathMap {
		dirs = append(dirs, r.To)
	}
	return &Symbolicator{opts: opts, files: opts.Files.With(dirs...), maps: map[string]*loadedMap{}, dirs: map[string]*dirIndex{}, scripts: map[string]scriptMap{}}
}

// isScriptFrame reports whether a frame is JavaScript with a script URL,
// the frames symbolication works on and coverage counts.
func isScriptFrame(f *analyze.Frame) bool {
	return f.Kind == analyze.KindCode && !f.Go && f.File != "" && f.Generated == nil
}

// isNodeInternal reports whether a script is Node's own (node:fs, or the
// bare names old Node versions used): it ships without maps and is left out
// of coverage.
func isNodeInternal(url string) bool { return analyze.NodeScript(url) }

// Apply maps p's JavaScript frames through their source maps, rewriting
// them in place, and records coverage in p.Symbolication. Problems with
// maps (unreadable, invalid) become warnings on p, never errors: an
// unmapped frame keeps what the profiler recorded.
func (s *Symbolicator) Apply(p *analyze.Profile) {
	s.mu.Lock()
	defer s.mu.Unlock()
	self := p.SelfByFrame() // for coverage
	byScript := map[string][]int32{}
	for i := range p.Frames {
		if f := &p.Frames[i]; isScriptFrame(f) {
			byScript[f.File] = append(byScript[f.File], int32(i))
		}
	}
	cov := &analyze.Symbolication{}
	var miss, minified []scriptTime // scripts without a map; those that look bundled or minified
	for _, script := range slices.Sorted(maps.Keys(byScript)) {
		frames := byScript[script]
		var scriptNs int64
		for _, f := range frames {
			scriptNs += self[f]
		}
		if isNodeInternal(script) {
			continue
		}
		cov.Scripts++
		cov.OnCPUJSNs += scriptNs
		lm, why := s.mapFor(script, p, frames)
		if lm == nil {
			miss = append(miss, scriptTime{script, scriptNs})
			if looksMinified(p, frames) {
				minified = append(minified, scriptTime{script, scriptNs})
			}
			// A script outside the folders given is worth a word only
			// when it needed a map.
			if why.Message != "" && (why.Kind != analyze.WarnScriptOutside || looksMinified(p, frames)) {
				why.Message = script + ": " + why.Message
				p.Warnings = append(p.Warnings, why)
			}
			continue
		}
		if w, ok := lm.oneBuild(script, p, frames); !ok {
			p.Warnings = append(p.Warnings, w)
		}
		cov.MappedScripts++
		cov.OnCPUMappedNs += s.applyMap(p, lm, frames, self)
		mapLineTicks(p, lm.m, frames)
	}
	for _, m := range busiestFirst(miss) {
		cov.Missing = append(cov.Missing, m.script)
	}
	for _, m := range busiestFirst(minified) {
		cov.Minified = append(cov.Minified, m.script)
		cov.UnmappedMinifiedNs += m.ns
	}
	p.Symbolication = cov
	if w, ok := s.coverageWarning(cov, miss, minified); ok {
		p.Warnings = append(p.Warnings, w)
	}
}

// oneBuild checks that the profiles one map serves for a script ran one
// build of it: a build puts the same function at each position, so two
// runs of one build record the same name at every position both recorded
// (at most 0.26% differ between the corpus's router runs of one build),
// while two builds differ at many (28.5-31.1% of the positions the router
// pair's before and after runs share). Where at least 20 positions are
// shared and a tenth of them differ, the profile ran another build than
// the ones the map served before, and it returns the warning that one map
// serves two builds (ok false); else it adds the profile's names.
func (lm *loadedMap) oneBuild(script string, p *analyze.Profile, frames []int32) (analyze.Warning, bool) {
	if lm.built == nil {
		lm.built = map[string]*builtNames{}
	}
	b := lm.built[script]
	if b == nil {
		b = &builtNames{first: p.File, names: map[[2]int32]string{}}
		lm.built[script] = b
	}
	shared, differ := 0, 0
	for _, fi := range frames {
		f := &p.Frames[fi]
		if f.Name == "" || f.Line <= 0 || f.Column <= 0 {
			continue
		}
		if name, ok := b.names[[2]int32{f.Line, f.Column}]; ok {
			shared++
			if name != f.Name {
				differ++
			}
		}
	}
	if shared >= 20 && 10*differ >= shared {
		return analyze.Warning{Kind: analyze.WarnMapSharedByBuilds,
			Message: fmt.Sprintf("%s and %s ran different builds of %s (%d of the %d positions both recorded hold other function names), but one source map, %s, serves both",
				b.first, p.File, script, differ, shared, lm.name)}, false
	}
	for _, fi := range frames {
		f := &p.Frames[fi]
		if k := [2]int32{f.Line, f.Column}; f.Name != "" && f.Line > 0 && f.Column > 0 && b.names[k] == "" {
			b.names[k] = f.Name
		}
	}
	return analyze.Warning{}, true
}

// scriptTime is a script and its on-CPU self time.
type scriptTime struct {
	script string
	ns     int64
}

// busiestFirst sorts scripts by time, the busiest first, then by name.
func busiestFirst(ss []scriptTime) []scriptTime {
	slices.SortFunc(ss, func(a, b scriptTime) int {
		if c := cmp.Compare(b.ns, a.ns); c != 0 {
			return c
		}
		return cmp.Compare(a.script, b.script)
	})
	return ss
}

// coverageWarning warns when little was mapped and it matters: maps were
// asked for or found, or scripts of the program's own (not in
// node_modules) look minified without one (it names those, else the
// scripts without a map, busiest first). Symbolication.Minified lists
// every minified script, dependencies too, warned of or not.
func (s *Symbolicator) coverageWarning(cov *analyze.Symbolication, miss, minified []scriptTime) (analyze.Warning, bool) {
	asked := len(s.opts.Dirs)+len(s.opts.Maps) > 0 || cov.MappedScripts > 0
	if !asked {
		// Nothing was bundled or mapped: a dependency shipped minified
		// without a map (marked's lib/marked.esm.js) is as its authors
		// published it, no flag of the user's would name its functions,
		// and its package is still attributed from its path, so only
		// minified scripts of the program's own are worth a warning.
		minified = slices.DeleteFunc(slices.Clone(minified), func(m scriptTime) bool { return isDependency(m.script) })
	}
	if cov.OnCPUJSNs == 0 || cov.OnCPUMappedNs*10 >= cov.OnCPUJSNs*9 || (!asked && len(minified) == 0) {
		return analyze.Warning{}, false
	}
	name := miss
	if len(minified) > 0 {
		name = minified
	}
	var names []string
	for i, m := range name {
		if i == 3 {
			names = append(names, fmt.Sprintf("and %d more", len(name)-3))
			break
		}
		names = append(names, m.script) // the headline gives each side's share
	}
	share := 100 * float64(cov.OnCPUMappedNs) / float64(cov.OnCPUJSNs)
	switch {
	case cov.MappedScripts == 0 && !asked && len(minified) > 0:
		// Nothing was bundled or mapped: the code is as written, but for
		// minified scripts shipped as they are (a library's .min.js).
		return analyze.Warning{Kind: analyze.WarnMinifiedUnmapped,
			Message: fmt.Sprintf("no bundle was mapped, but %s %s minified and without a source map, so %s the minifier's",
				strings.Join(names, ", "), plural(len(minified), "looks", "look"), plural(len(minified), "its names are", "their names are"))}, true
	case len(names) == 0:
		return analyze.Warning{Kind: analyze.WarnMapsIncomplete,
			Message: fmt.Sprintf("only %.1f%% of JavaScript on-CPU time was mapped to original sources: the maps found do not cover the rest of their scripts (is each map the one its bundle was built with?)", share)}, true
	}
	return analyze.Warning{Kind: analyze.WarnNoSourceMap,
		Message: fmt.Sprintf("only %.1f%% of JavaScript on-CPU time was mapped to original sources; no source map for %s", share, strings.Join(names, ", "))}, true
}

// isDependency reports whether a script is a published package's file:
// it lies in a node_modules folder.
func isDependency(script string) bool {
	return strings.Contains(script, "/node_modules/") || strings.HasPrefix(script, "node_modules/")
}

// plural picks the word for n things.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// looksMinified reports whether a script looks minified: a quarter of its
// functions start past column 500 (minified code stands on a few long
// lines; a readable script has at most one or two functions on a long
// line of data), or its name says .min.
func looksMinified(p *analyze.Profile, frames []int32) bool {
	far := 0
	for _, f := range frames {
		if p.Frames[f].Column > 500 {
			far++
		}
	}
	return 4*far >= len(frames) || strings.Contains(scriptBase(p.Frames[frames[0]].File), ".min.")
}

// applyMap rewrites the frames of one script through its map and returns
// the self time of the frames it mapped.
func (s *Symbolicator) applyMap(p *analyze.Profile, lm *loadedMap, frames []int32, self []int64) int64 {
	qs := make([]sourcemap.Query, len(frames))
	for i, fi := range frames {
		f := &p.Frames[fi]
		qs[i] = sourcemap.Query{Line: int(f.Line) - 1, Column: int(f.Column) - 1}
		if f.Column == 0 {
			qs[i].Column = -1
		}
	}
	answers := lm.m.Lookup(qs)
	var mapped int64
	for i, fi := range frames {
		f := &p.Frames[fi]
		pos, ok := originalPosition(answers[i], qs[i].Column)
		if !ok || f.Line == 0 || (f.Line == 1 && f.Column == 1 && f.Name == "") {
			// Unmapped, or the script's top level (V8 reports it as an
			// anonymous function at 1:1): bundler code of no one source.
			continue
		}
		gen := analyze.Position{Name: f.Name, File: f.File, Line: f.Line, Column: f.Column}
		f.Generated = &gen
		f.Name = functionName(lm.m, lm.source, answers[i], pos, qs[i].Column, gen.Name)
		f.File = sourcePath(lm.m.Sources[pos.Source])
		f.Line, f.Column = int32(pos.Line+1), int32(pos.Column+1)
		f.Ignored = pos.Source < len(lm.m.Ignored) && lm.m.Ignored[pos.Source]
		mapped += self[fi]
	}
	return mapped
}

// Source returns the original text of a file that a map read so far named
// (by the path frames carry after mapping): from the map's sourcesContent,
// else from the file the map's source names, found as the comparison
// finds scripts (relative to the map's folder, after --path-map), read
// only below the folders the user gave.
func (s *Symbolicator) Source(file string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, key := range slices.Sorted(maps.Keys(s.maps)) {
		lm := s.maps[key]
		if lm.m == nil {
			continue
		}
		for i, src := range lm.m.Sources {
			if sourcePath(src) != file {
				continue
			}
			if st := lm.source(i); st != nil {
				return st.text, true
			}
			if text, ok := s.sourceOnDisk(lm, src); ok {
				return text, true
			}
		}
	}
	return "", false
}

// maxSourceFile bounds a map's source read from disk.
const maxSourceFile = confine.DefaultMaxSize

// sourceOnDisk reads a map's source that has no sourcesContent from where
// the map names it.
func (s *Symbolicator) sourceOnDisk(lm *loadedMap, src string) (string, bool) {
	p := s.rewrite(src)
	if strings.Contains(p, "://") {
		return "", false // webpack://, http://: no file named
	}
	if !filepath.IsAbs(p) {
		if lm.dir == "" {
			return "", false
		}
		p = filepath.Join(lm.dir, filepath.FromSlash(p))
	}
	b, err := s.files.ReadFile(p, maxSourceFile)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// sourcePath turns a map's source into a clean path that does not depend
// on where the map was found (two builds' maps in different folders must
// name the same source alike): bundler schemes (webpack://,
// webpack-internal://) and leading "../" dropped, so that
// "../../node_modules/x/a.js" reads "node_modules/x/a.js" and
// "../src/router.js" reads "src/router.js". Absolute paths and other URLs
// stay as they are.
func sourcePath(src string) string {
	for _, scheme := range []string{"webpack-internal://", "webpack://"} {
		if rest, ok := strings.CutPrefix(src, scheme); ok {
			// webpack://name/./src/a.js: drop the namespace.
			if i := strings.Index(rest, "/"); i >= 0 {
				rest = rest[i+1:]
			}
			return strings.TrimPrefix(path.Clean("/"+rest), "/")
		}
	}
	if rest, ok := strings.CutPrefix(src, "file://"); ok {
		src = rest
	}
	if strings.Contains(src, "://") {
		return src // another URL: keep it as the map says
	}
	if filepath.IsAbs(src) {
		return filepath.Clean(src)
	}
	clean := path.Clean(filepath.ToSlash(src))
	for strings.HasPrefix(clean, "../") {
		clean = clean[3:]
	}
	return strings.TrimPrefix(clean, "./")
}
