import { docsSite } from '../../extras/docs-site/index.js';
import { operatorKit } from '../../extras/operator/index.js';
import type { OperatorKitOptions } from '../../extras/operator/index.js';
import { startTestServer as startKernelTestServer } from './http.js';
import type { TestServer, TestServerOptions as KernelTestServerOptions } from './http.js';

export * from './http.js';

/** Options of startTestServer: startServer's, and the operator's kit's. */
export type TestServerOptions = KernelTestServerOptions & OperatorKitOptions;

/**
 * Starts a server as the standalone server is (the docs site and the operator's kit, with the kit's
 * options given here) on 127.0.0.1, port 0, with a fresh store unless one is given. The kernel's own
 * tests use test/support/http.ts's, which loads no extra.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const { accessLog, metrics, readyTimeout, readiness, ...serverOptions } = options;
  const kit = operatorKit({ ...(accessLog === undefined ? {} : { accessLog }), ...(metrics === undefined ? {} : { metrics }), ...(readyTimeout === undefined ? {} : { readyTimeout }), ...(readiness === undefined ? {} : { readiness }) });
  const plugins = [docsSite({ redirectRoot: true }), kit, ...(options.plugins ?? [])];
  return startKernelTestServer({ ...serverOptions, plugins });
}
