package narrow

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/profdiff/profdiff/analyze"
)

// onCPUByHand sums the on-CPU time of the samples taken in [from, to) from
// a .cpuprofile's raw samples and timeDeltas, read here on their own:
// sample i is at the sum of the deltas up to i and weighs the next delta
// (the last one the median), negative deltas counting as 0.
func onCPUByHand(t *testing.T, file string, from, to int64) int64 {
	data, err := os.ReadFile(filepath.Join("..", "testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Nodes []struct {
			ID        int `json:"id"`
			CallFrame struct {
				FunctionName string `json:"functionName"`
			} `json:"callFrame"`
		} `json:"nodes"`
		Samples    []int   `json:"samples"`
		TimeDeltas []int64 `json:"timeDeltas"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	name := map[int]string{}
	for _, n := range raw.Nodes {
		name[n.ID] = n.CallFrame.FunctionName
	}
	sorted := slices.Clone(raw.TimeDeltas)
	for i := range sorted {
		sorted[i] = max(sorted[i], 0)
	}
	slices.Sort(sorted)
	var tm, on int64
	for i, id := range raw.Samples {
		tm += raw.TimeDeltas[i]
		w := sorted[len(sorted)/2]
		if i+1 < len(raw.Samples) {
			w = max(raw.TimeDeltas[i+1], 0)
		}
		if tm*1000 >= from && tm*1000 < to && name[id] != "(idle)" && name[id] != "(program)" {
			on += w * 1000
		}
	}
	return on
}

// A window's on-CPU time is the hand-summed time of the raw samples in it,
// and a window reaching past the end is no window.
func TestWindowMatchesHandSummedTimeDeltas(t *testing.T) {
	const file = "node-router-unbundled-before.cpuprofile"
	whole := analyze.Aggregate(load(t, file), analyze.AggregateOptions{}).Summary
	for _, spec := range []string{"1s..3s", "500ms..", "..2s", "250ms..1750ms", "0s..1000s"} {
		w, err := ParseWindow(spec)
		if err != nil {
			t.Fatal(err)
		}
		p := load(t, file)
		if err := (&Filters{Window: w}).Apply(p); err != nil {
			t.Fatal(err)
		}
		to := w.To
		if to < 0 {
			to = 1 << 62
		}
		got := analyze.Aggregate(p, analyze.AggregateOptions{}).Summary
		if want := onCPUByHand(t, file, w.From, to); got.OnCPUNs != want || want == 0 {
			t.Errorf("--window %s: on-CPU %d, by hand %d", spec, got.OnCPUNs, want)
		}
		if spec == "0s..1000s" && (got.OnCPUNs != whole.OnCPUNs || got.SampledNs != whole.SampledNs || got.WallNs != whole.WallNs) {
			t.Errorf("a window past the end changes the summary: %+v, want %+v", got, whole)
		}
	}
}
