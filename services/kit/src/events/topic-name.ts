// Topic names follow Kafka's rule, so a name that works on the embedded log also works in
// production; it also makes every name a safe file name.
const LEGAL = /^[A-Za-z0-9._-]{1,249}$/;

export function assertTopicName(topic: string): void {
  if (typeof topic !== 'string' || !LEGAL.test(topic) || topic === '.' || topic === '..') {
    throw new RangeError(`illegal topic name ${JSON.stringify(topic)}: use 1-249 of [A-Za-z0-9._-]`);
  }
}

/** Where a topic's records go once a consumer gives up on them. */
export const deadLetterTopicOf = (topic: string): string => `${topic}.dlq`;

export const isDeadLetterTopic = (topic: string): boolean => topic.endsWith('.dlq');
