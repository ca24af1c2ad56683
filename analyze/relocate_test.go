package analyze

import "testing"

func TestRelative(t *testing.T) {
	for _, tc := range []struct{ file, root, want string }{
		{"/ci/old/src/app.js", "/ci/old/", "src/app.js"},
		{"/ci/old/node_modules/a/i.js", "/ci/old/", "node_modules/a/i.js"},
		{"/ci/older/app.js", "/ci/old/", "/ci/older/app.js"}, // a sibling, not below
		{"/ci/old/", "/ci/old/", "/ci/old/"},
		{"node:fs", "/ci/old/", "node:fs"},
		{"/ci/old/app.js", "", "/ci/old/app.js"},
	} {
		if got := Relative(tc.file, tc.root); got != tc.want {
			t.Errorf("Relative(%q, %q) = %q, want %q", tc.file, tc.root, got, tc.want)
		}
	}
	p := &Profile{Frames: []Frame{{Kind: KindCode, File: "/ci/old/a.js", Generated: &Position{File: "/ci/old/dist/a.min.js"}}, {Kind: KindNative}}}
	p.Relocate("/ci/old/")
	if p.Frames[0].File != "a.js" || p.Frames[0].Generated.File != "/ci/old/dist/a.min.js" || p.Frames[1].File != "" {
		t.Errorf("relocated frames: %+v, %+v", p.Frames[0], p.Frames[1])
	}
}
