// Types of rewrite-package-imports.mjs for the TypeScript test that imports it.
export const FACES: Record<string, string>;
export function rewriteSpecifiers(text: string): string;
export function mergeImports(text: string, fileName?: string): string;
