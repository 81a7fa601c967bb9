// @fieldops/kit/events: the event log port, the event envelope, the embedded log, the wake-up
// signal and the store that relays its outbox to the log.
export { listDeadLetters, replayDeadLetters } from './dead-letters.ts';
export type { DeadLetter, DeadLetterFilter, ReplayOutcome } from './dead-letters.ts';
export { openEmbeddedEventLog } from './embedded.ts';
export { classifyFailure } from './failure-class.ts';
export { followFromStart, JoinFailed } from './follow.ts';
export type { FailureClass } from './failure-class.ts';
export { domainEvent, outboxEmitter, projectOf, topicOf } from './envelope.ts';
export type { DomainEvent, EmitEvent } from './envelope.ts';
export { PermanentEventFailure } from './port.ts';
export type { EventLog, EventRecord, Subscription } from './port.ts';
export { Wakeup } from './wakeup.ts';
