// Builds dist/app.js + dist/app.js.map (an ECMA-426 index map) with
// metro-source-map's BundleBuilder, from three modules each minified by
// esbuild with its own regular source map.
//
// Layout of dist/app.js (0-based lines):
//   line 0      header comment                          (unmapped, no section)
//   line 1      tokenize.js, fully minified, one line   section at {line:1, column:0}
//   line 1..N   stats.js, identifiers+syntax minified,  section at {line:1, column:len(tokenize)}
//               multi-line, starts MID-LINE right after tokenize
//   line N      main.js, fully minified, one line,      section at {line:N, column:len(last stats line)}
//               starts MID-LINE after stats' last line
//   line N      "\n//# sourceMappingURL=..." (unmapped)  BundleBuilder closes with an empty
//                                                        section ({mappings:"A"}) at end of line N
import * as esbuild from "esbuild";
import { BundleBuilder } from "metro-source-map";
import { mkdirSync, writeFileSync } from "node:fs";

const modules = [
  { name: "tokenize", opts: { minify: true } },
  // Whitespace kept, so this section spans several lines: the section's
  // column offset must apply only to its first line.
  { name: "stats", opts: { minifyIdentifiers: true, minifySyntax: true } },
  { name: "main", opts: { minify: true } },
];

async function minifyModule({ name, opts }) {
  const result = await esbuild.build({
    entryPoints: [`src/${name}.js`],
    outfile: `dist/${name}.js`, // only used to make map `sources` relative to dist/
    bundle: false,
    sourcemap: "external",
    sourcesContent: true,
    write: false,
    logLevel: "silent",
    ...opts,
  });
  const js = result.outputFiles.find((f) => f.path.endsWith(".js")).text;
  const map = JSON.parse(result.outputFiles.find((f) => f.path.endsWith(".map")).text);
  // Drop esbuild's own sourceMappingURL comment and the trailing newline, so
  // the next module continues on the same line.
  const code = js.replace(/\n?\/\/# sourceMappingURL=.*\n?$/, "").replace(/\n+$/, "");
  return { code, map };
}

const builder = new BundleBuilder("app.js");
builder.append("// profdiff index-map fixture (metro-source-map BundleBuilder)\n");
for (const mod of modules) {
  const { code, map } = await minifyModule(mod);
  builder.append(code, map);
}
builder.append("\n//# sourceMappingURL=app.js.map\n");

mkdirSync("dist", { recursive: true });
writeFileSync("dist/app.js", builder.getCode());
writeFileSync("dist/app.js.map", JSON.stringify(builder.getMap()));
console.log(JSON.stringify(builder.getMap().sections.map((s) => s.offset)));
