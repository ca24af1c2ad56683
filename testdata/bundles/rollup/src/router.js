import { match, compile } from 'path-to-regexp';

export class Router {
  constructor(routes) {
    // real work in the constructor: compile every route several times
    this.routes = [];
    for (let k = 0; k < 40; k++) {
      for (const r of routes) {
        this.routes.push({ name: r.name, test: match(r.path, { decode: decodeURIComponent }), build: compile(r.path) });
      }
    }
    this.routes.length = routes.length;
  }

  resolve(url) {
    for (const route of this.routes) {
      const m = route.test(url);
      if (m) return { name: route.name, params: m.params };
    }
    return null;
  }

  link(name, params) {
    const route = this.routes.find(r => r.name === name);
    return route ? route.build(params) : '';
  }
}

export const buildRoutes = (count) => {
  const out = [];
  for (let i = 0; i < count; i++) out.push({ name: 'r' + i, path: `/api/v${i}/users/:userId/items/:itemId` });
  return out;
};
