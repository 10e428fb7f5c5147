// Builds the files `arbiter serve` serves (dist/) from the sources (src/):
//   dist/index.html              the page, revalidated by the browser on every load (ETag)
//   dist/assets/app-HASH.js      src/main.js and what it imports, @msgpack/msgpack included,
//                                bundled and minified by esbuild; cached for good (the name
//                                changes with the content)
//   dist/assets/style-HASH.css   src/style.css, src/event/event.css and src/replay/replay.css,
//                                minified
//   dist/licenses.txt            the licences of the bundled packages
// `node build.mjs` rewrites dist/; `node build.mjs --out DIR` builds into DIR (the test suite
// compares such a build with the dist/ that ships). The output depends only on the sources and
// on the versions package-lock.json pins.

import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const out = args[0] === "--out" && args[1] ? args[1] : join(here, "dist");

const hash = (text) => createHash("sha256").update(text).digest("hex").slice(0, 12);

const js = await esbuild.build({
  entryPoints: [join(here, "src", "main.js")], bundle: true, minify: true, format: "esm",
  target: "es2022", write: false, legalComments: "none", charset: "utf8", logLevel: "warning",
});
// The event views keep their rules in their own file (src/event/event.css), after the page's.
const styles = [join(here, "src", "style.css"), join(here, "src", "event", "event.css"),
  join(here, "src", "replay", "replay.css")];
const css = await esbuild.transform(styles.map((f) => readFileSync(f, "utf8")).join("\n"), {
  loader: "css", minify: true, target: "chrome110", charset: "utf8" });

const jsText = js.outputFiles[0].text;
const assets = { "app.js": `app-${hash(jsText)}.js`, "style.css": `style-${hash(css.code)}.css` };
const html = readFileSync(join(here, "src", "index.html"), "utf8")
  .replace(/\{\{(app\.js|style\.css)\}\}/g, (_, name) => assets[name]);
const pkg = JSON.parse(readFileSync(join(here, "node_modules", "@msgpack", "msgpack", "package.json"), "utf8"));
const licenses = `The page bundles these packages:\n\n${pkg.name} ${pkg.version} (${pkg.license})\n\n`
  + readFileSync(join(here, "node_modules", "@msgpack", "msgpack", "LICENSE"), "utf8");

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, "assets"), { recursive: true });
writeFileSync(join(out, "index.html"), html);
writeFileSync(join(out, "assets", assets["app.js"]), jsText);
writeFileSync(join(out, "assets", assets["style.css"]), css.code);
writeFileSync(join(out, "licenses.txt"), licenses);
console.log(`built ${out}: ${assets["app.js"]} (${jsText.length} bytes), ${assets["style.css"]} (${css.code.length} bytes)`);
