// Writes docs/images/reference.png, the README's picture of the reference page: the createPet console's
// answer to a body the schema refuses, with its explanation (why this answer), under the key field, in
// Debian's Chromium. Run with `npm run screenshot` after changing the page.
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { docsSite } from '../extras/docs-site/index.js';
import { createPetstore, seedPets } from '../lib/index.js';
import { startServer } from '../server/node/index.js';
import { chromiumMissing, launchChromium } from './chromium.js';

/** The key typed into the page; the README's quick start uses the same one. */
const API_KEY = 'secret-key-for-dev';

/** Wide enough for the contents beside the text, tall enough for an answer's status line and its whole explanation. */
const VIEWPORT = { width: 1280, height: 1000 };

const root = resolve(import.meta.dirname, '..');
const target = resolve(root, 'docs', 'images', 'reference.png');

const missing = await chromiumMissing();
if (missing !== undefined) {
  process.stderr.write(`${missing}\n`);
  process.exit(1);
}

const store = createPetstore();
await seedPets(store, JSON.parse(await readFile(resolve(root, 'examples', 'seed-pets.json'), 'utf8')));
// The page is the docs site's, a plugin of the server as the standalone server adds it.
const server = await startServer({ store, apiKeys: [API_KEY], port: 0, plugins: [docsSite()] });
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: VIEWPORT });
  await page.goto(`${server.url}/docs`);
  await page.fill('#api-key', API_KEY);
  // A create the schema refuses: the answer's explanation shows the order of checks, the one that refused it, each field problem and the decisions that shaped it.
  const form = 'form.try[data-operation="createPet"]';
  await page.fill(`${form} textarea[name="body"]`, '{"name": "", "categoryId": 1.5, "id": 3}');
  await page.click(`${form} button[type="submit"]`);
  const why = page.locator('.result[data-operation="createPet"]:not([aria-busy]) .why');
  await why.waitFor();
  // The answer's status line at the top of the screen, its explanation under it.
  await page.evaluate('document.querySelector(\'.result[data-operation="createPet"]\').scrollIntoView({ block: "start" }); window.scrollBy(0, -90)');
  await page.mouse.move(0, 0);
  await mkdir(dirname(target), { recursive: true });
  await page.screenshot({ path: target });
  process.stdout.write(`Wrote ${target}\n`);
} finally {
  await browser.close();
  await server.close();
}
