import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PetstoreHandler } from './handler.js';

/** An Express (or Connect) error handler, mounted after the app's JSON parser and the Petstore handler. */
export type ParserErrorHandler = (error: unknown, request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * The bytes a JSON parser's refusal (body-parser's, co-body's) stands for, answered by the handler as the
 * bare handler answers them: the text it could not parse (a U+FFFD it decoded put back as a byte that is
 * not UTF-8), more bytes than its limit, none where the head decides (a coding); undefined for any other error.
 */
function bytesOfRefusal(error: unknown): Uint8Array | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { type, body, limit }: { type?: unknown; body?: unknown; limit?: unknown } = error;
  if (typeof body === 'string' && (type === 'entity.parse.failed' || error instanceof SyntaxError)) {
    return Buffer.concat(body.split('\uFFFD').flatMap((part, index) => (index === 0 ? [Buffer.from(part)] : [Buffer.of(0xff), Buffer.from(part)])));
  }
  if (type === 'entity.too.large' && typeof limit === 'number') return new Uint8Array(limit + 1);
  return type === 'encoding.unsupported' ? new Uint8Array() : undefined;
}

/** Hands a refused body to the handler; false for another error, or a request that is not the handler's. */
function answerRefusal(handler: PetstoreHandler, error: unknown, request: IncomingMessage & { body?: unknown }, response: ServerResponse): boolean {
  const bytes = bytesOfRefusal(error);
  let isElsewhere = bytes === undefined;
  if (bytes !== undefined) handler(Object.assign(request, { body: bytes }), response, () => void (isElsewhere = true));
  return !isElsewhere;
}

/** Express error handler after `handler`: a JSON parser's refusal on its paths gets the bare handler's answer; the rest goes to `next`. */
export function parserErrorHandler(handler: PetstoreHandler): ParserErrorHandler {
  return (error, request, response, next) => void (answerRefusal(handler, error, request, response) || next(error));
}

/** Koa middleware before @koa/bodyparser: what `parserErrorHandler` is for Express. */
export function koaParserErrors(
  handler: PetstoreHandler,
): (context: { req: IncomingMessage; res: ServerResponse; respond?: boolean }, next: () => Promise<unknown>) => Promise<void> {
  return async (context, next) => {
    try {
      await next();
    } catch (error) {
      if (!answerRefusal(handler, error, context.req, context.res)) throw error;
      context.respond = false;
    }
  };
}
