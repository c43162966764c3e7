import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PetstoreHandler } from './handler.js';

/** An Express (or Connect) error handler, mounted after the app's JSON parser and the Petstore handler. */
export type ParserErrorHandler = (error: unknown, request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;

/** What Koa middleware is given of a context: Node's request and response, and whether Koa writes an answer. */
export interface KoaContextLike {
  req: IncomingMessage;
  res: ServerResponse;
  respond?: boolean;
}

/**
 * The bytes a refusing JSON parser (body-parser, co-body) stands for, so that the handler answers them as
 * the bare handler would: the text it could not parse (a U+FFFD it decoded back to a byte that is not
 * UTF-8), more bytes than any limit for a body over its own, none where the head already decides. Undefined:
 * no parser's refusal of a body.
 */
function bytesOfRefusal(error: unknown): Uint8Array | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const type = 'type' in error ? error.type : undefined;
  const body = 'body' in error ? error.body : undefined;
  if (typeof body === 'string' && (type === 'entity.parse.failed' || error instanceof SyntaxError)) {
    return Buffer.concat(body.split('\uFFFD').flatMap((part, index) => (index === 0 ? [Buffer.from(part)] : [Buffer.of(0xff), Buffer.from(part)])));
  }
  if (type === 'entity.too.large' && 'limit' in error && typeof error.limit === 'number') return new Uint8Array(error.limit + 1);
  return type === 'encoding.unsupported' ? new Uint8Array() : undefined;
}

/** Hands a refused body to the handler; false when the request is not the handler's, or the error no parser's refusal. */
function answerRefusal(handler: PetstoreHandler, error: unknown, request: IncomingMessage & { body?: unknown }, response: ServerResponse): boolean {
  const bytes = bytesOfRefusal(error);
  let isElsewhere = bytes === undefined;
  if (bytes !== undefined) {
    request.body = bytes;
    handler(request, response, () => void (isElsewhere = true));
  }
  return !isElsewhere;
}

/**
 * Express error handler that answers a JSON parser's refusal (`express.json()`: JSON it cannot parse, a
 * body over its limit, a content coding) of a request `handler` serves as the bare handler answers that
 * body, the interface's Error; anything else goes on to `next`.
 */
export function parserErrorHandler(handler: PetstoreHandler): ParserErrorHandler {
  return (error, request, response, next) => void (answerRefusal(handler, error, request, response) || next(error));
}

/** Koa middleware, before @koa/bodyparser: what `parserErrorHandler` is for Express. */
export function koaParserErrors(handler: PetstoreHandler): (context: KoaContextLike, next: () => Promise<unknown>) => Promise<void> {
  return async (context, next) => {
    try {
      await next();
    } catch (error) {
      if (!answerRefusal(handler, error, context.req, context.res)) throw error;
      context.respond = false;
    }
  };
}
