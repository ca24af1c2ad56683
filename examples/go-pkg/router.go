// Package router matches request paths against route patterns such as
// /api/v1/users/:id, compiling a regular expression per route on every
// request: a small Go workload for profdiff's GitHub Action example.
package router

import (
	"regexp"
	"strings"
)

// Route is a pattern with :name parameters.
type Route struct {
	Name, Pattern string
}

// Match returns the first route matching path and its parameters.
func Match(routes []Route, path string) (Route, map[string]string, bool) {
	for _, r := range routes {
		var names []string
		parts := strings.Split(r.Pattern, "/")
		for i, p := range parts {
			if strings.HasPrefix(p, ":") {
				names = append(names, p[1:])
				parts[i] = "([^/]+)"
			}
		}
		re := regexp.MustCompile("^" + strings.Join(parts, "/") + "$")
		if m := re.FindStringSubmatch(path); m != nil {
			params := make(map[string]string, len(names))
			for i, n := range names {
				params[n] = m[i+1]
			}
			return r, params, true
		}
	}
	return Route{}, nil, false
}
