// Serves the fetch handler over a fresh in-memory store with Deno.serve or Bun.serve, whichever runtime runs this file.
// Arguments: the directory of a build (its server/fetch/, lib/ and extras/docs-site/ folders) and the API key. Prints the port once listening.
const [distDirectory, apiKey] = globalThis.Deno?.args ?? globalThis.process.argv.slice(2);
const { createFetchHandler } = await import(new URL('server/fetch/index.js', `file://${distDirectory}/`).href);
const { createPetstore } = await import(new URL('lib/index.js', `file://${distDirectory}/`).href);
const { docsSite } = await import(new URL('extras/docs-site/index.js', `file://${distDirectory}/`).href);
const handler = createFetchHandler({ store: createPetstore(), apiKeys: [apiKey], plugins: [docsSite()] });

if (globalThis.Deno !== undefined) {
  Deno.serve({ port: 0, hostname: '127.0.0.1', onListen: ({ port }) => console.log(`port ${port}`) }, handler);
} else {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: handler });
  console.log(`port ${server.port}`);
}
