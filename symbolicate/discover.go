package symbolicate

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/internal/confine"
	"github.com/profdiff/profdiff/sourcemap"
)

// mapLocation says where a map comes from: a file, or inline data.
type mapLocation struct {
	file   string // path of a map file
	inline []byte // the map of a data: URL
	base   string // folder its relative sources resolve against (inline maps: the script's)
	key    string // cache key
}

// rewrite applies --path-map prefixes and removes a file:// scheme.
func (s *Symbolicator) rewrite(u string) string { return Rewrite(s.opts.PathMap, u) }

// Rewrite applies the first rule whose From prefixes a recorded path or
// URL (u, or u with a file:// scheme, so that a rule given either way
// applies to a path recorded either way), then removes a file:// scheme:
// where the comparison looks for a script, and where a source listing
// looks for a source file.
func Rewrite(rules []PathRewrite, u string) string {
	for _, r := range rules {
		if rest, ok := strings.CutPrefix(u, r.From); ok {
			u = r.To + rest
			break
		}
		if rest, ok := strings.CutPrefix("file://"+u, r.From); ok && !strings.Contains(u, "://") {
			u = r.To + rest
			break
		}
	}
	if rest, ok := strings.CutPrefix(u, "file://"); ok {
		u = rest
	}
	return u
}

// isLocal reports whether u names a local path rather than a URL.
func isLocal(u string) bool { return u != "" && !strings.Contains(u, "://") }

// scriptBase returns the last path element of a script URL or path,
// without query or fragment.
func scriptBase(u string) string {
	if i := strings.IndexAny(u, "?#"); i >= 0 && strings.Contains(u, "://") {
		u = u[:i]
	}
	u = strings.ReplaceAll(u, "\\", "/")
	return path.Base(u)
}

// mapFor finds and decodes the map of a script, or says why there is none
// (a warning with an empty Message when nothing says why).
func (s *Symbolicator) mapFor(script string, p *analyze.Profile, frames []int32) (*loadedMap, analyze.Warning) {
	sm, ok := s.scripts[script]
	switch {
	case !ok:
		sm = s.discover(script, p, frames)
		if sm.why.Kind != analyze.WarnMapGivenOtherBuild {
			// Another profile served by this symbolicator (the other
			// side's) may be the build the folders hold: not cached.
			s.scripts[script] = sm
		}
	case sm.built != "" && p != nil && !s.sameBuild(sm.built, p, frames):
		// The sides share this symbolicator, and this profile ran another
		// build of the script than the one the map was found for.
		sm = s.discover(script, p, frames)
	}
	if sm.loc.key == "" {
		return nil, sm.why
	}
	lm := s.load(sm.loc)
	if lm.err != nil {
		return nil, unusable(lm.err.Error())
	}
	return lm, analyze.Warning{}
}

// discover looks for a script's map in the order the options promise:
// the maps and folders the user named come before the script at its
// recorded path, which is used only when it is the build profiled (see
// sameBuild): what is checked out or deployed there now is often the
// other side's build.
func (s *Symbolicator) discover(script string, p *analyze.Profile, frames []int32) scriptMap {
	prof := p
	local := s.rewrite(script)
	base := scriptBase(script)
	// 1. An explicit pair.
	for _, p := range s.opts.Maps {
		named := strings.TrimPrefix(p.Script, "file://") // frames keep paths without the scheme
		if named == script || named == local || named == base ||
			(strings.Contains(named, "/") && strings.HasSuffix(local, "/"+strings.TrimPrefix(named, "./"))) {
			// The bundle beside the map, when it is there, must be the
			// build profiled (one --sourcemap for two builds).
			if beside := filepath.Join(filepath.Dir(p.Map), base); prof != nil && s.fileExists(beside) {
				if !s.sameBuild(beside, prof, frames) {
					return scriptMap{why: otherBuild([]string{beside})}
				}
				return scriptMap{loc: fileLocation(p.Map), built: beside}
			}
			return scriptMap{loc: fileLocation(p.Map)}
		}
	}
	// 2. The search folders: of the scripts there by this name, the one
	// that is the build profiled (a folder may hold several builds'); a
	// folder whose scripts of this name are all other builds gives no map,
	// since a map of another build maps every moved function wrongly.
	var other []string // scripts found that are another build
	for _, dir := range s.opts.Dirs {
		idx := s.index(dir)
		for _, sp := range idx.ranked(idx.scripts[base], local) {
			loc, why, found := s.fromScript(sp)
			if !found && why.Message == "" {
				continue
			}
			if found && p != nil && !s.sameBuild(sp, p, frames) {
				other = append(other, sp)
				continue
			}
			return scriptMap{loc: loc, why: why, built: sp}
		}
		if len(other) > 0 {
			continue // the maps beside those scripts are theirs
		}
		if mp := idx.best(idx.maps[base+".map"], local+".map"); mp != "" {
			return scriptMap{loc: fileLocation(mp)}
		}
		if mp := idx.best(idx.byFileField(s.files, base), local+".map"); mp != "" {
			return scriptMap{loc: fileLocation(mp)}
		}
	}
	if len(other) > 0 {
		return scriptMap{why: otherBuild(other)}
	}
	// 3. The script's own comment, and 4. SCRIPT.map beside it, when the
	// script there is the one profiled.
	if isLocal(local) {
		if loc, why, found := s.fromScript(local); found || why.Message != "" {
			if found && p != nil && !s.sameBuild(local, p, frames) {
				return scriptMap{why: analyze.Warning{Kind: analyze.WarnMapOtherBuild,
					Message: "the script at this path is another build than the one profiled (the recorded function names are not at their recorded positions in it), so its source map is not used"}}
			}
			return scriptMap{loc: loc, why: why}
		}
	}
	return scriptMap{}
}

// otherBuild is the warning for scripts found with the source maps given
// that are all another build than the one profiled.
func otherBuild(scripts []string) analyze.Warning {
	return analyze.Warning{Kind: analyze.WarnMapGivenOtherBuild,
		Message: fmt.Sprintf("%s, found with the source maps given, is another build than the one profiled (the recorded function names are not at their recorded positions in it), so its source map would map this profile's functions to the wrong names; none was used", strings.Join(scripts, ", "))}
}

// maxCheckedScript bounds the size of a script read to check its build.
const maxCheckedScript = 256 << 20

// sameBuild reports whether the script at path is the build the profile
// recorded: for 90% of its named frames (up to 5,000 checked), the
// recorded function name ends just before the recorded position (V8
// reports where the parameter list opens: "function render(" or
// "render(a){"). Of a name V8 composed ("q1.exports", "get x") the last
// part is looked for. A script with no frame to check passes. Measured on
// the corpus's router builds, whose bundles differ in a few modules only:
// 97.2-98.1% of a profile's named frames match its own build, 66.3-70.5%
// the other (all ten runs, each against both bundles).
func (s *Symbolicator) sameBuild(path string, p *analyze.Profile, frames []int32) bool {
	checked, matched := s.buildMatch(path, p, frames)
	return checked == 0 || 10*matched >= 9*checked
}

// buildMatch counts the named frames checked against the script at path
// and those whose name ends just before their recorded position in it
// (none when it cannot be read: nothing says it differs).
func (s *Symbolicator) buildMatch(path string, p *analyze.Profile, frames []int32) (checked, matched int) {
	data, err := s.files.ReadFile(path, maxCheckedScript)
	if err != nil {
		return 0, 0
	}
	type check struct {
		line, col int // 0-based line, UTF-16 column of the '('
		name      string
	}
	var checks []check
	for _, fi := range frames {
		f := &p.Frames[fi]
		name := f.Name
		if i := strings.LastIndexAny(name, ". "); i >= 0 {
			name = name[i+1:]
		}
		if name == "" || f.Line <= 0 || f.Column <= 0 || strings.ContainsAny(name, "()[]<>") {
			continue
		}
		checks = append(checks, check{int(f.Line) - 1, int(f.Column) - 1, name})
		if len(checks) == 5000 {
			break
		}
	}
	// Columns count UTF-16 code units (minified lines often hold other
	// scripts' characters), so each line is walked once, in column order.
	slices.SortFunc(checks, func(a, b check) int { return cmp.Or(cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col)) })
	line, lineStart := 0, 0 // the line walked, and where it starts (-1: past the end)
	off, units := 0, 0      // the byte offset in it reached, at this many UTF-16 units
	for _, c := range checks {
		checked++
		for lineStart >= 0 && line < c.line {
			i := bytes.IndexByte(data[lineStart:], '\n')
			if i < 0 {
				lineStart = -1
				break
			}
			lineStart += i + 1
			line++
			off, units = lineStart, 0
		}
		if lineStart < 0 {
			continue // past the end of the script
		}
		for units < c.col && off < len(data) && data[off] != '\n' {
			r, size := utf8.DecodeRune(data[off:])
			off += size
			if units++; r >= 0x10000 {
				units++
			}
		}
		if units != c.col {
			continue // past the end of its line
		}
		lo := max(off-len(c.name)-16, lineStart)
		if bytes.Contains(data[lo:off], []byte(c.name)) {
			matched++
		}
	}
	return checked, matched
}

func fileLocation(p string) mapLocation {
	abs, err := filepath.Abs(p)
	if err != nil {
		abs = p
	}
	return mapLocation{file: abs, base: filepath.Dir(abs), key: "file:" + abs}
}

// fileExists reports whether p is a regular file that may be read: a
// FIFO or a device would block or never end when read, and a file outside
// the folders given is not read.
func (s *Symbolicator) fileExists(p string) bool { return s.files.Exists(p) }

// fromScript reads a local script's sourceMappingURL (else looks for
// SCRIPT.map beside it). found is false when the script does not exist or
// names no map; why explains a map that is named but cannot be used.
func (s *Symbolicator) fromScript(script string) (loc mapLocation, why analyze.Warning, found bool) {
	f, err := s.files.Open(script)
	if err != nil {
		if refusal, ok := confine.IsRefusal(err); ok && refusal.Reason == confine.Outside {
			why = analyze.Warning{Kind: analyze.WarnScriptOutside, Message: "its source map was not looked for: " + err.Error()}
		}
		return mapLocation{}, why, false
	}
	if abs, err := filepath.Abs(script); err == nil {
		script = abs
	}
	ref, err := SourceMappingURLOf(f)
	f.Close()
	if err != nil {
		return mapLocation{}, unusable(err.Error()), false
	}
	dir := filepath.Dir(script)
	if ref != "" {
		return s.resolveRef(ref, script, dir)
	}
	if s.fileExists(script + ".map") {
		return fileLocation(script + ".map"), why, true
	}
	return mapLocation{}, why, false
}

// unusable is the warning for a map that was found but cannot be used.
func unusable(msg string) analyze.Warning {
	return analyze.Warning{Kind: analyze.WarnMapUnusable, Message: msg}
}

// resolveRef resolves a sourceMappingURL value found in script.
func (s *Symbolicator) resolveRef(ref, script, dir string) (mapLocation, analyze.Warning, bool) {
	var none analyze.Warning
	if strings.HasPrefix(ref, "data:") {
		b, err := decodeDataURL(ref)
		if err != nil {
			return mapLocation{}, unusable(fmt.Sprintf("inline source map: %v", err)), false
		}
		return mapLocation{inline: b, base: dir, key: "inline:" + script}, none, true
	}
	target := s.rewrite(ref)
	if strings.Contains(target, "://") {
		// A URL profdiff will not fetch: look for its file by name.
		base := scriptBase(target)
		for _, d := range append([]string{dir}, s.opts.Dirs...) {
			if p := filepath.Join(d, base); s.fileExists(p) {
				return fileLocation(p), none, true
			}
		}
		return mapLocation{}, analyze.Warning{Kind: analyze.WarnMapRemote,
			Message: fmt.Sprintf("its map %s is a URL, and profdiff never fetches over the network", ref)}, false
	}
	if u, err := url.PathUnescape(target); err == nil {
		target = u
	}
	p := target
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	p = filepath.Clean(p)
	if _, err := s.files.Check(p, 0); err != nil {
		if refusal, ok := confine.IsRefusal(err); ok && refusal.Reason == confine.Outside {
			where := ""
			if refusal.Real != "" && refusal.Real != p {
				where = " (" + refusal.Real + ")"
			}
			return mapLocation{}, analyze.Warning{Kind: analyze.WarnMapOutside,
				Message: fmt.Sprintf("its sourceMappingURL %s%s leads outside the folders profdiff may read", ref, where)}, false
		} else if ok {
			return mapLocation{}, unusable(err.Error()), false
		}
		return mapLocation{}, unusable(fmt.Sprintf("its map %s was not found", p)), false
	}
	return fileLocation(p), none, true
}

// load decodes a map once.
func (s *Symbolicator) load(loc mapLocation) *loadedMap {
	if lm, ok := s.maps[loc.key]; ok {
		return lm
	}
	lm := &loadedMap{dir: loc.base, name: cmp.Or(loc.file, "the inline map of "+strings.TrimPrefix(loc.key, "inline:"))}
	data := loc.inline
	if loc.file != "" {
		data, lm.err = s.readLimited(loc.file, s.opts.MaxMapSize)
	}
	if lm.err == nil {
		lm.m, lm.err = sourcemap.Parse(data)
		if lm.err == nil && loc.file != "" {
			lm.m.OwnData() // data was read for this map alone
		}
		if lm.err != nil {
			name := loc.file
			if name == "" {
				name = "inline map"
			}
			lm.err = fmt.Errorf("source map %s: %v", name, lm.err)
		}
	}
	s.maps[loc.key] = lm
	return lm
}

// readLimited reads a map file of at most limit bytes.
func (s *Symbolicator) readLimited(p string, limit int64) ([]byte, error) {
	f, err := s.files.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("source map %s is %d bytes, over the %d-byte limit", p, st.Size(), limit)
	}
	// One buffer of the file's size: growing one as io.ReadAll does
	// page-faults several times the map's size in fresh memory.
	buf := make([]byte, st.Size())
	adviseHugePages(buf)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	return buf[:n], nil
}

// dirIndex lists the scripts and maps below a search folder by basename.
type dirIndex struct {
	root    string
	scripts map[string][]string
	maps    map[string][]string
	byFile  map[string][]string // maps by their "file" field, read on first need
	read    bool
}

const (
	maxIndexDepth = 8
	maxIndexFiles = 100000
)

func (s *Symbolicator) index(dir string) *dirIndex {
	if idx, ok := s.dirs[dir]; ok {
		return idx
	}
	idx := &dirIndex{root: dir, scripts: map[string][]string{}, maps: map[string][]string{}}
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != dir && (d.Name() == ".git" || strings.Count(strings.TrimPrefix(p, dir), string(filepath.Separator)) > maxIndexDepth) {
				return filepath.SkipDir
			}
			return nil
		}
		if n++; n > maxIndexFiles {
			return filepath.SkipAll
		}
		name := d.Name()
		switch {
		case strings.HasSuffix(name, ".map"):
			idx.maps[name] = append(idx.maps[name], p)
		case strings.HasSuffix(name, ".js") || strings.HasSuffix(name, ".mjs") || strings.HasSuffix(name, ".cjs"):
			idx.scripts[name] = append(idx.scripts[name], p)
		}
		return nil
	})
	s.dirs[dir] = idx
	return idx
}

// byFileField returns the maps whose "file" field names base.
func (idx *dirIndex) byFileField(files *confine.Reader, base string) []string {
	if !idx.read {
		idx.read = true
		idx.byFile = map[string][]string{}
		for _, ps := range idx.maps {
			for _, p := range ps {
				if f := mapFileField(files, p); f != "" {
					idx.byFile[path.Base(f)] = append(idx.byFile[path.Base(f)], p)
				}
			}
		}
	}
	return idx.byFile[base]
}

// mapFileField reads a map's "file" field without decoding the rest.
func mapFileField(files *confine.Reader, p string) string {
	f, err := files.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	dec := json.NewDecoder(io.LimitReader(f, 64<<20))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return ""
		}
		if k == "file" {
			var v string
			if dec.Decode(&v) != nil {
				return ""
			}
			return v
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return ""
		}
	}
	return ""
}

// ranked orders same-named candidates as best would pick them: the
// longest tail shared with the recorded path first, then by path.
func (idx *dirIndex) ranked(cands []string, recorded string) []string {
	rec := strings.Split(filepath.ToSlash(recorded), "/")
	score := func(c string) int {
		parts := strings.Split(filepath.ToSlash(c), "/")
		n := 0
		for i, j := len(parts)-1, len(rec)-1; i >= 0 && j >= 0 && parts[i] == rec[j]; i, j = i-1, j-1 {
			n++
		}
		return n
	}
	out := slices.Clone(cands)
	slices.SortStableFunc(out, func(a, b string) int {
		if c := cmp.Compare(score(b), score(a)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return out
}

// best picks, among same-named candidates, the one whose path shares the
// longest tail with the recorded one.
func (idx *dirIndex) best(cands []string, recorded string) string {
	best, bestScore := "", -1
	rec := strings.Split(filepath.ToSlash(recorded), "/")
	for _, c := range cands {
		parts := strings.Split(filepath.ToSlash(c), "/")
		score := 0
		for i, j := len(parts)-1, len(rec)-1; i >= 0 && j >= 0 && parts[i] == rec[j]; i, j = i-1, j-1 {
			score++
		}
		if score > bestScore || (score == bestScore && c < best) {
			best, bestScore = c, score
		}
	}
	return best
}
