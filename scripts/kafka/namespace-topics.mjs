// Deletes the topics of one Kafka namespace (`<namespace>.fieldops.<service>.events` and the
// rest): a test platform or a test cluster takes its topics with it, as it takes its data dir.
// Kept apart from broker.mjs and the cluster scripts so the HTTP test harness loads only the
// Kafka client (@platformatic/kafka, the event log's client).
import { Admin } from '@platformatic/kafka';

/** @param {string[]} brokers @param {string} namespace */
export async function deleteNamespaceTopics(brokers, namespace) {
  const admin = new Admin({ clientId: 'fieldops-test-cleanup', bootstrapBrokers: brokers });
  try {
    const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(`${namespace}.`));
    if (topics.length > 0) await admin.deleteTopics({ topics });
  } finally {
    await admin.close();
  }
}
