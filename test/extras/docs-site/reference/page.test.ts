import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderReferencePage } from '../../../../extras/docs-site/reference/page.js';
import { statusLine } from '../../../../extras/docs-site/reference/status-reasons.js';
import { createOpenApiDocument } from '../../../../extras/docs-site/openapi/index.js';
import type { OpenApiDocument } from '../../../../extras/docs-site/openapi/index.js';

/** The default document as JSON would bring it, so a test may take parts away. */
function plainDocument(): OpenApiDocument {
  return JSON.parse(JSON.stringify(createOpenApiDocument())) as OpenApiDocument;
}

test('renderReferencePage() leaves out what a sparser document does not hold, and still renders every section', () => {
  const document = plainDocument();
  const list = document.paths['/pets']?.get;
  const get = document.paths['/pets/{petId}']?.get;
  const description = document.paths['/openapi.json']?.get;
  assert.ok(list !== undefined && get !== undefined && description !== undefined);
  delete list.parameters;
  delete list.description;
  list.responses = { 200: { description: 'A page.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pets' } } } } };
  delete description.operationId;
  for (const response of Object.values(get.responses)) {
    delete response.headers?.['Link'];
    delete response.headers?.['Deprecation'];
  }
  get.responses['299'] = { description: 'An unusual success.', headers: { 'X-Custom': { description: 'A number.', schema: { type: 'integer' }, examples: { one: { value: '1' } } } } };
  delete document.components.schemas['Error'];
  const newPet = document.components.schemas['NewPet'];
  assert.ok(newPet !== undefined);
  document.components.schemas['NewPet'] = Object.fromEntries(Object.entries(newPet).filter(([key]) => key !== 'description'));
  for (const response of [...Object.values(document['x-shared-responses']), ...Object.values(document.paths).flatMap((item) => Object.values(item.get?.responses ?? {}).concat(Object.values(item.post?.responses ?? {})))]) {
    const media = response.content?.['application/json'];
    if (media !== undefined && JSON.stringify(media.schema).includes('allOf')) delete media.examples;
  }
  const { html } = renderReferencePage(document, { bodyLimit: 1000 });
  for (const id of ['authentication', 'paging', 'errors', 'schemas', 'decisions', 'listPets', 'createPet', 'getPet']) assert.ok(html.includes(`id="${id}"`), id);
  assert.ok(html.includes('<p>The list operation answers at most'), 'paging without a list operation to link');
  assert.ok(!html.includes('<pre><code>Link: '), 'no Link example to show');
  assert.ok(html.includes('<p><strong>Deprecated.</strong> Removed on <strong>5 December 2030</strong>'), 'the sunset alone');
  assert.ok(!html.includes('Use its successor instead'), 'no successor without its Link');
  assert.ok(html.includes('<h4><span class="status status-2xx">299</span></h4>'), 'a status without a reason phrase');
  assert.ok(html.includes('<th scope="row"><code>X-Custom</code></th><td>sometimes</td><td>A number.</td><td><code>1</code></td>'));
  assert.ok(html.includes('<div class="schema-item" id="schema-NewPet"><h3>NewPet</h3><table'), 'a schema without a description');
  assert.match(html, /<h2 id="errors-title">Errors<\/h2>\n<p>[^\n]*<\/p>\n\n<p>Decisions:/, 'no Error body to show');
  assert.ok(html.includes('<td><code></code></td><td>This description</td>'), 'an operation without an id');
});

test('statusLine() gives the reason phrase of each status the server answers with, and the bare number of any other', () => {
  assert.deepEqual(['200', '201', '302', '304', '413', '503', '299'].map(statusLine), ['200 OK', '201 Created', '302 Found', '304 Not Modified', '413 Content Too Large', '503 Service Unavailable', '299']);
});
