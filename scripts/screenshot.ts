// Writes docs/images/reference.png, the README's picture of the reference page: the listPets console
// with a live answer under the key field, in Debian's Chromium. Run with `npm run screenshot` after changing the page.
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { createPetstore, seedPets } from '../lib/index.js';
import { startServer } from '../server/node/index.js';
import { chromiumMissing, launchChromium } from './chromium.js';

/** The key typed into the page; the README's quick start uses the same one. */
const API_KEY = 'secret-key';

/** Wide enough for the contents beside the text, tall enough for the form and its whole answer. */
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
const server = await startServer({ store, apiKeys: [API_KEY], port: 0 });
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: VIEWPORT });
  await page.goto(`${server.url}/docs`);
  await page.fill('#api-key', API_KEY);
  const form = 'form.try[data-operation="listPets"]';
  await page.fill(`${form} [name="limit"]`, '2');
  await page.selectOption(`${form} select[name="status"]`, 'available');
  // Twice: the first answer's time includes the server's first-request work, which a reader would not see again.
  for (let send = 0; send < 2; send++) {
    await page.click(`${form} button[type="submit"]`);
    await page.locator('.result[data-operation="listPets"]:not([aria-busy]) .follow-next').waitFor();
  }
  // The console's heading at the top of the screen: the form, then the answer with its Link and Next page.
  await page.evaluate('document.getElementById("listPets-try").scrollIntoView({ block: "start" })');
  await page.mouse.move(0, 0);
  await mkdir(dirname(target), { recursive: true });
  await page.screenshot({ path: target });
  process.stdout.write(`Wrote ${target}\n`);
} finally {
  await browser.close();
  await server.close();
}
