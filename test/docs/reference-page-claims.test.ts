/**
 * docs/reference-page.md's measured claim about the page, held against the page in Chromium: how far
 * below each operation's heading its console's form sits on a 1280 px wide screen.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { launchTestBrowser, openPage } from '../browser/browser.js';
import { startTestServer } from '../support/standalone-http.js';
import { ROOT } from '../support/process.js';

const chromium = await launchTestBrowser();

/** The operations of the page, each a heading `#<id>-title` and a console `#<id>-try`. */
const OPERATIONS = ['listPets', 'createPet', 'getPet'];

test('docs/reference-page.md states the distance from each operation\'s heading to its console as the page lays it out at 1280 px', { skip: chromium.skip }, async () => {
  const text = await readFile(join(ROOT, 'docs', 'reference-page.md'), 'utf8');
  const claim = /([\d,]+) to ([\d,]+) px below\s+the operation's heading on a 1280 px wide screen/.exec(text);
  assert.ok(claim !== null, 'docs/reference-page.md states the distance as "N to M px below the operation\'s heading on a 1280 px wide screen"');
  const [least, most] = [claim[1], claim[2]].map((figure) => Number((figure ?? '').replaceAll(',', '')));
  assert.ok(chromium.browser !== undefined);
  const server = await startTestServer();
  try {
    const { context, page } = await openPage(chromium.browser, { viewport: { width: 1280, height: 800 } });
    try {
      await page.goto(`${server.url}/docs`);
      const distances: Record<string, number> = {};
      for (const operation of OPERATIONS) {
        const top = async (id: string): Promise<number> => Number(await page.evaluate(`document.getElementById(${JSON.stringify(id)}).getBoundingClientRect().top + window.scrollY`));
        distances[operation] = Math.round((await top(`${operation}-try`)) - (await top(`${operation}-title`)));
      }
      for (const [operation, distance] of Object.entries(distances)) {
        assert.ok(distance >= (least ?? 0) && distance <= (most ?? 0), `${operation}'s console is ${distance} px below its heading, outside the ${least}–${most} px the document states (all: ${JSON.stringify(distances)})`);
      }
    } finally {
      await context.close();
    }
  } finally {
    await server.close();
  }
});
