// Why: the repository's import rules (package-boundaries, folder-layers) read every way a module
// names another (import, export ... from, import()), so the list of those nodes lives once.

/** The rule's `create`: `check(context, node, source)` for every module a file names. */
export function onImportSources(check) {
  return (context) => {
    const visit = (node) => check(context, node, node.source?.value);
    return {
      ImportDeclaration: visit,
      ExportAllDeclaration: visit,
      ExportNamedDeclaration: visit,
      ImportExpression: visit,
    };
  };
}
