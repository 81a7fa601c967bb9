// Types of package-boundaries.js for the TypeScript tests that run the rule.
import type { Rule } from 'eslint';

/** The workspace folder a file belongs to; the repository root for files of no workspace. */
export function workspaceOf(file: string): string;

declare const plugin: { rules: { 'package-boundaries': Rule.RuleModule } };
export default plugin;
