// The project's broker formats its storage with a fresh cluster id. An id starting with "-" is
// read by the storage tool as an option, and the broker does not start (about one id in 64: a
// containerized group of CI failed so). The ids are drawn as Kafka's own Uuid.randomUuid() does.
import { describe, expect, it } from '@jest/globals';
import { newClusterId } from '../../scripts/kafka/broker.mjs';

describe('the broker cluster id', () => {
  it('is a UUID in URL-safe base64 that never starts with "-", over enough draws to meet one', () => {
    // With 1 in 64 starting with "-", 5 000 draws meet one with probability 1 - (63/64)^5000 ≈ 1.
    const ids = Array.from({ length: 5_000 }, () => newClusterId());
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
      expect(Buffer.from(id, 'base64url')).toHaveLength(16);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });
});
