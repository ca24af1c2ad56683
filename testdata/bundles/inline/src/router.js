const { match } = require("path-to-regexp");

const ROUTES = [
  "/users/:id",
  "/users/:id/posts/:postId",
  "/files/*path",
  "/api/v1/:resource/:action",
  "/health",
];

function buildRoutes() {
  return ROUTES.map((pattern) => ({
    pattern,
    matcher: match(pattern, { decode: decodeURIComponent }),
  }));
}

function matchRoute(routes, path) {
  for (const route of routes) {
    const result = route.matcher(path);
    if (result) {
      return { pattern: route.pattern, params: result.params };
    }
  }
  return null;
}

module.exports = { buildRoutes, matchRoute };
