// @fieldops/kit, the core every service uses: configuration, request context, the error catalogue,
// ids and the logger. The other faces: store, events, blobs, fast, grpc, write, domain, process,
// adapters, metrics, testing (docs/architecture.md, "Package faces").
export { ConfigError, GATEWAY_ANSWER_MS, loadConfig } from './config.js';
export type { Config, HttpEdge } from './config.js';
export { systemContext } from './context.js';
export type { RequestContext } from './context.js';
export { wholeNumberFromEnv } from './env-number.js';
export { AppError, ERROR_CATALOGUE, notFound } from './errors.js';
export type { ErrorCode } from './errors.js';
export { newId, nowIso } from './ids.js';
export { createLogger } from './log.js';
export type { Logger } from './log.js';
