// Types of namespace-topics.mjs for the TypeScript test harness.
/** Deletes every topic whose name starts with `<namespace>.`. */
export function deleteNamespaceTopics(brokers: string[], namespace: string): Promise<void>;
