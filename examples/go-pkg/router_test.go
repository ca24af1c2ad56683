package router

import (
	"fmt"
	"testing"
)

func routes() []Route {
	var rs []Route
	for i := 0; i < 40; i++ {
		rs = append(rs, Route{Name: fmt.Sprint("resource", i), Pattern: fmt.Sprintf("/api/v1/resource%d/:id/items/:item", i)})
	}
	return rs
}

func TestMatch(t *testing.T) {
	r, p, ok := Match(routes(), "/api/v1/resource7/42/items/9")
	if !ok || r.Name != "resource7" || p["id"] != "42" || p["item"] != "9" {
		t.Errorf("Match: %v %v %v", r, p, ok)
	}
}

func BenchmarkMatch(b *testing.B) {
	rs := routes()
	for i := 0; b.Loop(); i++ {
		Match(rs, fmt.Sprintf("/api/v1/resource%d/%d/items/%d", i%40, i, i*7))
	}
}
