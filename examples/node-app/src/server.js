// Serves REQUESTS simulated requests (default 20000) through the router and
// renders a small JSON answer for each: a stand-in for an app's hot path.
import { match } from "./router.js";

const routes = [];
for (let i = 0; i < 60; i++) {
  routes.push({ pattern: `/api/v1/resource${i}/:id/items/:item`, name: `resource${i}` });
}

function render(hit) {
  return JSON.stringify({ route: hit.route.name, params: hit.params, at: Date.now() });
}

const requests = Number(process.env.REQUESTS || 10000);
let bytes = 0;
for (let i = 0; i < requests; i++) {
  const hit = match(routes, `/api/v1/resource${i % 60}/${i}/items/${i * 7}`);
  bytes += render(hit).length;
}
console.log(`served ${requests} requests, ${bytes} bytes`);
