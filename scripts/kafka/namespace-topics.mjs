// Deletes the topics of one Kafka namespace (`<namespace>.fieldops.<service>.events` and the
// rest): a test platform or a test cluster takes its topics with it, as it takes its data dir.
// Kept apart from broker.mjs and the cluster scripts so the HTTP test harness loads only kafkajs.
import { Kafka, logLevel } from 'kafkajs';

/** @param {string[]} brokers @param {string} namespace */
export async function deleteNamespaceTopics(brokers, namespace) {
  const admin = new Kafka({ clientId: 'fieldops-test-cleanup', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(`${namespace}.`));
    if (topics.length > 0) await admin.deleteTopics({ topics });
  } finally {
    await admin.disconnect();
  }
}
