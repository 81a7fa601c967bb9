// @fieldops/kit, the core every service uses: configuration, request context, the error catalogue,
// ids and the logger. The other faces: store, events, blobs, fast, grpc, write, domain, process,
// adapters, metrics, testing (docs/architecture.md, "Package faces").
export { ConfigError, GATEWAY_ANSWER_MS, loadConfig } from './config.ts';
export type { Config, HttpEdge } from './config.ts';
export { systemContext } from './context.ts';
export type { RequestContext } from './context.ts';
export { wholeNumberFromEnv } from './env-number.ts';
export { AppError, ERROR_CATALOGUE, notFound } from './errors.ts';
export type { ErrorCode } from './errors.ts';
export { newId, nowIso } from './ids.ts';
export { createLogger } from './log.ts';
export type { Logger } from './log.ts';
