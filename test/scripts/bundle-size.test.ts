import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BUNDLE_BUDGETS, bundledSize } from '../../scripts/bundle-size.js';

describe('npm run bundle-size', () => {
  for (const { entry, source, budget } of BUNDLE_BUDGETS) {
    test(`${entry} weighs at most ${budget / 1000} KB bundled and minified, without the docs site or any other extra`, async () => {
      const size = await bundledSize(source);
      assert.ok(size <= budget, `${entry}: ${size} bytes`);
    });
  }

  test('bundledSize() counts what an entry pulls in, so a budget can fail', async () => {
    const site = await bundledSize('extras/docs-site/index.ts');
    assert.ok(site > 60_000, `the docs site alone: ${site} bytes`);
  });
});
