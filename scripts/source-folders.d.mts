// Types of source-folders.mjs for the TypeScript tests that import it.
export function sourceFolders(repo?: string): string[];
