const { buildRoutes, matchRoute } = require("./router");
const { renderLine } = require("./format");

const PATHS = [
  "/users/42",
  "/users/7/posts/99",
  "/files/a/b/c.txt",
  "/api/v1/orders/list",
  "/health",
  "/nope/missing",
];

function runWorkload(durationMs) {
  const routes = buildRoutes();
  const deadline = Date.now() + durationMs;
  let total = 0;
  let iterations = 0;
  while (Date.now() < deadline) {
    for (let i = 0; i < PATHS.length; i++) {
      const hit = matchRoute(routes, PATHS[i]);
      const { sum } = renderLine(hit, (iterations * 7919 + i) % 5000000);
      total = (total + sum) >>> 0;
    }
    iterations++;
  }
  return { total, iterations };
}

const result = runWorkload(1500);
console.log(`iterations=${result.iterations} total=${result.total}`);
