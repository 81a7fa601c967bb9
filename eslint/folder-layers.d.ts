// Types of folder-layers.js for the TypeScript tests that run the rule.
import type { Rule } from 'eslint';

type Layers = readonly (readonly string[])[];

/** The gateway's layers, lowest first: each a list of units (folders or top files of gateway/src). */
export const GATEWAY_LAYERS: Layers;

/** Each service's layers by the service's folder name (services/<name>/src), lowest first. */
export const SERVICE_LAYERS: Readonly<Record<string, Layers>>;

/** Every layered folder, relative to the repository, and its layers. */
export const FOLDER_LAYERS: Readonly<Record<string, Layers>>;

/** The unit of a file under a layered folder (`registry`, `app`, `billing`), or undefined. */
export function unitOf(file: string): string | undefined;

declare const plugin: { rules: { 'folder-layers': Rule.RuleModule } };
export default plugin;
