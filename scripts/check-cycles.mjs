// Fails on any import cycle in src/: between files, and between top-level folders (src/<folder>/ or a
// top-level file such as src/app.ts). Type-only imports count: a layer that names an upper layer's types
// depends on it all the same. `--verbose` prints the folder graph.
import path from "node:path";
import { parseCircular, parseDependencyTree } from "dpdm";

const root = path.resolve(import.meta.dirname, "..");
const verbose = process.argv.includes("--verbose");
const say = (line) => process.stdout.write(`${line}\n`);

const tree = await parseDependencyTree(["src/**/*.{ts,tsx}"], {
  cwd: root,
  context: root,
  transform: false,
  skipDynamicImports: false,
  tsconfig: path.join(root, "tsconfig.json"),
});

const inSrc = (id) => id?.startsWith("src/");
// The folder a file belongs to: src/posts/save.ts → posts; src/app.ts → app.ts.
const folderOf = (id) => id.split("/")[1].replace(/\.ts$/, ".ts");

const fileCycles = parseCircular(tree).filter((cycle) => cycle.every(inSrc));

const edges = new Map();
const why = new Map();
for (const [file, deps] of Object.entries(tree)) {
  if (!inSrc(file) || !deps) continue;
  for (const dep of deps) {
    if (!inSrc(dep.id)) continue;
    const from = folderOf(file);
    const to = folderOf(dep.id);
    if (from === to) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from).add(to);
    const key = `${from} → ${to}`;
    if (!why.has(key)) why.set(key, `${file} → ${dep.id}`);
  }
}

// Tarjan's strongly connected components over the folder graph: any component of two or more folders
// is a cycle.
const folderCycles = [];
{
  let index = 0;
  const stack = [];
  const state = new Map();
  const nodes = new Set([...edges.keys(), ...[...edges.values()].flatMap((s) => [...s])]);
  const visit = (v) => {
    state.set(v, { index, low: index, onStack: true });
    index++;
    stack.push(v);
    for (const w of edges.get(v) ?? []) {
      if (!state.has(w)) {
        visit(w);
        state.get(v).low = Math.min(state.get(v).low, state.get(w).low);
      } else if (state.get(w).onStack) {
        state.get(v).low = Math.min(state.get(v).low, state.get(w).index);
      }
    }
    if (state.get(v).low === state.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        state.get(w).onStack = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) folderCycles.push(component.sort());
    }
  };
  for (const v of nodes) if (!state.has(v)) visit(v);
}

if (verbose) {
  for (const [from, tos] of [...edges].sort()) say(`${from} → ${[...tos].sort().join(", ")}`);
}
for (const cycle of fileCycles) say(`file cycle: ${cycle.join(" → ")} → ${cycle[0]}`);
for (const component of folderCycles) {
  say(`folder cycle: ${component.join(", ")}`);
  for (const from of component) {
    for (const to of edges.get(from) ?? []) {
      if (component.includes(to)) say(`  ${from} → ${to}   (${why.get(`${from} → ${to}`)})`);
    }
  }
}
say(`import cycles in src/: ${fileCycles.length} between files, ${folderCycles.length} between folders`);
process.exit(fileCycles.length + folderCycles.length > 0 ? 1 : 0);
