// @fieldops/kit/events: the event log port, the event envelope, the embedded log, the wake-up
// signal and the store that relays its outbox to the log.
export { listDeadLetters, replayDeadLetters } from './dead-letters.js';
export type { DeadLetter, DeadLetterFilter, ReplayOutcome } from './dead-letters.js';
export { openEmbeddedEventLog } from './embedded.js';
export { domainEvent, outboxEmitter, projectOf, topicOf } from './envelope.js';
export type { DomainEvent, EmitEvent } from './envelope.js';
export { PermanentEventFailure } from './port.js';
export type { EventLog, EventRecord, Subscription } from './port.js';
export { Wakeup } from './wakeup.js';
