// A router that matches a path against every route in turn, building a
// regular expression per route on every request: the kind of code a
// profile points at.
export function compile(pattern) {
  const names = [];
  const source = pattern.replace(/:([a-z]+)/g, (_, name) => {
    names.push(name);
    return "([^/]+)";
  });
  return { re: new RegExp("^" + source + "$"), names };
}

export function match(routes, path) {
  for (const route of routes) {
    const { re, names } = compile(route.pattern);
    const m = re.exec(path);
    if (m) {
      const params = {};
      names.forEach((n, i) => (params[n] = m[i + 1]));
      return { route, params };
    }
  }
  return null;
}
