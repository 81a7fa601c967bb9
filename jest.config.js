// Jest runs the TypeScript sources as native ESM (node --experimental-vm-modules).
// ts-jest only transpiles (isolatedModules); `npm run typecheck` is the type gate.
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  // Sources import each other by their .ts names (Node runs them as they are); ts-jest's output
  // spells them .js (rewriteRelativeImportExtensions), which this maps back to the source.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  testMatch: ['**/test/**/*.test.ts'],
  // test/cluster and test/containers: the failure tests start and break clusters of their own
  // (scripts/cluster, as processes or as containers); they run in `npm run test:cluster [--
  // --containers]`, which lifts this pattern.
  testPathIgnorePatterns: ['/node_modules/', '/test/cluster/', '/test/containers/'],
  // Prints the Node version the suites run on (test/runtime.test.ts checks it is the pinned line).
  globalSetup: './test/support/global-setup.mjs',
  // Every test file's gRPC servers and clients run over mTLS from a CA of its own (internal-trust.ts).
  setupFilesAfterEnv: ['./test/support/internal-trust.ts'],
  testTimeout: 30000,
  maxWorkers: 2,
  // Jest's ESM mode keeps every test file's module graph alive in its worker: the heap grows by
  // 25-40 MB a file, to 3 GB by the end of a run. Every later file then pays for GCs of that heap,
  // and a worker that large did not exit within the half second jest waits ("A worker process has
  // failed to exit gracefully and has been force exited", once a run). A worker past this heap is
  // replaced by a fresh one after its current file.
  workerIdleMemoryLimit: '1GB',
};
