#!/usr/bin/env node
/**
 * The house's measurable rules (docs/architecture.md, "The house"), checked by `npm run lint`:
 *
 *   - no import circle among the TypeScript files (madge);
 *   - no product file over 600 lines (libs/<lib>/src and apps/<app>/src; specs, the test doubles
 *     of libs/testing and the generated clients aside);
 *   - no `Kysely<any>` or `Transaction<any>` outside tests, and the simple statements written with
 *     Kysely's typed builder (at least MIN_BUILDER_CALLS calls);
 *   - one stopword list per language, in its language file (libs/domain/src/language/<code>.ts);
 *     a STOPWORDS set elsewhere is built from those lists, never from words of its own.
 *
 * Prints what breaks a rule and exits 1; prints one line of counts otherwise.
 */
const { readdirSync, readFileSync, statSync } = require('node:fs');
const { join, relative, sep } = require('node:path');
const madge = require('madge');

const root = join(__dirname, '..');
const MAX_LINES = 600;
const MIN_BUILDER_CALLS = 25;

function filesUnder(dir, keep) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') continue;
    if (statSync(path).isDirectory()) out.push(...filesUnder(path, keep));
    else if (keep(path)) out.push(path);
  }
  return out;
}

const rel = (path) => relative(root, path).split(sep).join('/');
const isSpec = (path) => /\.(spec|contract|fixture)\.ts$/.test(path);
const sources = ['libs', 'apps']
  .flatMap((top) => readdirSync(join(root, top)).map((name) => join(root, top, name, 'src')))
  .filter((dir) => {
    try {
      return statSync(dir).isDirectory();
    } catch {
      return false;
    }
  })
  .flatMap((dir) => filesUnder(dir, (path) => /\.tsx?$/.test(path) && !isSpec(path)));
const product = sources.filter((path) => !rel(path).startsWith('libs/testing/'));

async function main() {
  const problems = [];

  const graph = await madge(
    ['libs', 'apps', 'bench', 'clients', 'test'].map((d) => join(root, d)),
    {
      fileExtensions: ['ts'],
      tsConfig: join(root, 'tsconfig.base.json'),
      excludeRegExp: [/node_modules/, /[\\/]dist[\\/]/],
    },
  );
  for (const circle of graph.circular()) problems.push(`import circle: ${circle.join(' > ')}`);

  for (const path of product) {
    const lines = readFileSync(path, 'utf8').split('\n').length;
    if (lines > MAX_LINES) problems.push(`${rel(path)}: ${lines} lines (at most ${MAX_LINES})`);
  }

  let builderCalls = 0;
  for (const path of [...product, ...filesUnder(join(root, 'bench'), (p) => p.endsWith('.ts'))]) {
    const text = readFileSync(path, 'utf8');
    if (/\b(Kysely|Transaction)<any>/.test(text)) problems.push(`${rel(path)}: Kysely<any> or Transaction<any> outside tests (use a slice of libs/store/src/schema.ts)`);
    builderCalls += (text.match(/\.(selectFrom|insertInto|updateTable|deleteFrom)\(/g) ?? []).length;
  }
  if (builderCalls < MIN_BUILDER_CALLS) problems.push(`${builderCalls} typed builder calls (at least ${MIN_BUILDER_CALLS})`);

  // A stopword set outside the language files may only be built from their lists (en.stopwords, …).
  let stopwordLists = 0;
  for (const path of sources) {
    const text = readFileSync(path, 'utf8');
    if (/^libs\/domain\/src\/language\/[a-z]{2}\.ts$/.test(rel(path))) {
      stopwordLists += (text.match(/^\s*stopwords:/gm) ?? []).length;
      continue;
    }
    for (const [, name, init] of text.matchAll(/\b(?:const|let|var)\s+(\w*STOPWORDS\w*)\b[^=]*=([^;]*);/gi)) {
      if (/['"`]/.test(init)) problems.push(`${rel(path)}: ${name} lists its own words (take them from libs/domain/src/language)`);
    }
  }
  const languages = readdirSync(join(root, 'libs/domain/src/language')).filter((f) => /^[a-z]{2}\.ts$/.test(f)).length;
  if (stopwordLists !== languages) problems.push(`${stopwordLists} stopword lists in ${languages} language files (one each)`);

  if (problems.length) {
    for (const p of problems) console.error(`house: ${p}`);
    process.exit(1);
  }
  console.log(
    `house: 0 circles; ${product.length} product files, none over ${MAX_LINES} lines; ${builderCalls} typed builder calls, no Kysely<any>; one stopword list in each of ${languages} language files`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
