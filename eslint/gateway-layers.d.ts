// Types of gateway-layers.js for the TypeScript tests that run the rule.
import type { Rule } from 'eslint';

/** The gateway's layers, lowest first: each a list of units (folders or top files of gateway/src). */
export const GATEWAY_LAYERS: readonly (readonly string[])[];

/** The unit of a file under gateway/src (`registry`, `app`), or undefined for a file outside it. */
export function unitOf(file: string): string | undefined;

declare const plugin: { rules: { 'gateway-layers': Rule.RuleModule } };
export default plugin;
