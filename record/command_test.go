package record

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"node main.js", []string{"node", "main.js"}},
		{`node -e "console.log('a b')"`, []string{"node", "-e", "console.log('a b')"}},
		{"  go  test\t-bench 'Route Match' ./...  ", []string{"go", "test", "-bench", "Route Match", "./..."}},
		{"sh -c 'echo $(date) > x'", []string{"sh", "-c", "echo $(date) > x"}},
		{`a ""`, []string{"a", ""}},
	} {
		got, err := Split(tc.in)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("Split(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"node 'main.js", "   ", ""} {
		if got, err := Split(bad); err == nil {
			t.Errorf("Split(%q) = %q, want an error", bad, got)
		}
	}
}

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want Profiler
	}{
		{"node main.js", ProfilerNode},
		{"/usr/local/bin/node --max-old-space-size=4096 main.js", ProfilerNode},
		{"npm run bench", ProfilerNode},
		{"npx tsx bench.ts", ProfilerNode},
		{"pnpm bench", ProfilerNode},
		{"yarn bench", ProfilerNode},
		{"go test -run ^$ -bench . -cpuprofile {profile}", ProfilerPlaceholder},
		{"node --cpu-prof --cpu-prof-name={profile} main.js", ProfilerPlaceholder},
	} {
		args, _ := Split(tc.cmd)
		if got, err := Detect(args); err != nil || got != tc.want {
			t.Errorf("Detect(%q) = %v, %v; want %v", tc.cmd, got, err, tc.want)
		}
	}
	_, err := Detect([]string{"python3", "app.py"})
	if err == nil {
		t.Fatal("python3 app.py was not refused")
	}
	for _, want := range []string{"python3 app.py", "NODE_OPTIONS", "--cpu-prof", "{profile}", "-cpuprofile {profile}"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal %q does not say %q", err, want)
		}
	}
}

func TestPrepareNode(t *testing.T) {
	inv := prepare(ProfilerNode, []string{"node", "main.js", "--n", "3"}, "/r/before/run-01", 250*time.Microsecond, "--max-old-space-size=100")
	// No --cpu-prof-name: node names each thread's profile, in the
	// run's hidden folder (pickProfiles).
	want := []string{"node", "--cpu-prof", "--cpu-prof-dir=/r/before/.run-01", "--cpu-prof-interval=250", "main.js", "--n", "3"}
	if !slices.Equal(inv.args, want) || inv.profile != "/r/before/run-01.cpuprofile" || inv.env != nil || inv.stage != "/r/before/.run-01" {
		t.Errorf("node: %q, env %q, profile %s, stage %q; want %q", inv.args, inv.env, inv.profile, inv.stage, want)
	}
	inv = prepare(ProfilerNode, []string{"npm", "run", "bench"}, "/r/my runs/after/run-02", 0, "--max-old-space-size=100")
	if !slices.Equal(inv.args, []string{"npm", "run", "bench"}) {
		t.Errorf("npm's words changed: %q", inv.args)
	}
	if want := `NODE_OPTIONS=--max-old-space-size=100 --cpu-prof --cpu-prof-dir="/r/my runs/after/.run-02"`; len(inv.env) != 1 || inv.env[0] != want {
		t.Errorf("npm: env %q, want %q", inv.env, want)
	}
	if inv.stage != "/r/my runs/after/.run-02" || inv.profile != "/r/my runs/after/run-02.cpuprofile" {
		t.Errorf("npm: stage %q, profile %q", inv.stage, inv.profile)
	}
}

func TestPreparePlaceholder(t *testing.T) {
	for _, tc := range []struct {
		cmd, want, profile string
	}{
		{"go test -bench . -cpuprofile {profile}", "go test -bench . -cpuprofile /r/a/run-01.pprof", "/r/a/run-01.pprof"},
		{"go test -bench . -cpuprofile={profile}", "go test -bench . -cpuprofile=/r/a/run-01.pprof", "/r/a/run-01.pprof"},
		{"py-spy record --format raw -o {profile}.folded -- python x.py", "py-spy record --format raw -o /r/a/run-01.folded -- python x.py", "/r/a/run-01.folded"},
		{"tool --out {profile}.pb.gz --also {profile}.pb.gz", "tool --out /r/a/run-01.pb.gz --also /r/a/run-01.pb.gz", "/r/a/run-01.pb.gz"},
	} {
		args, _ := Split(tc.cmd)
		inv := prepare(ProfilerPlaceholder, args, "/r/a/run-01", 0, "")
		if got := strings.Join(inv.args, " "); got != tc.want || inv.profile != tc.profile {
			t.Errorf("%s: %s (profile %s), want %s (profile %s)", tc.cmd, got, inv.profile, tc.want, tc.profile)
		}
	}
}
