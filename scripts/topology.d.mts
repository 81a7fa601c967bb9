// Types of topology.mjs for the TypeScript tests that import it.
export interface ProcessKind {
  /** The Deployment's name suffix and component label; the cluster's process name. */
  component: string;
  /** The bundle the image runs: dist/<process>.mjs. */
  process: string;
  /** Its entry point, relative to the repository root. */
  entry: string;
  /** Where its chart values live, as a path under .Values. */
  values: string[];
  serves: 'http' | 'grpc' | 'none';
  /** The services it calls over gRPC (it gets FIELDOPS_<SERVICE>_ADDR for each). */
  dials: string[];
  /** Whether it acts as the platform itself (a system principal, vouched for by its certificate). */
  system: boolean;
  /** gRPC services (package.Service) of this kind that only the kinds listed may call. */
  reserved?: Record<string, string[]>;
  /** The Secret's keys it reads. */
  secretKeys: string[];
  /** Whether it talks to object storage (gets the S3 credentials). */
  blobs: boolean;
  /** The image it runs: app (values `image`) or worker (values `workerImage`, with COLMAP). */
  image: 'app' | 'worker';
  /** Whether it gets a scratch volume (FIELDOPS_SCRATCH_DIR) sized by its values' scratch.sizeLimit. */
  scratch: boolean;
  /** What the runtime lets it touch (node --permission): scripts/permissions.mjs. */
  permissions: {
    /** Its folders under FIELDOPS_DATA_DIR (its stores), read and written. */
    data: string[];
    childProcess: boolean;
    worker: boolean;
    /** Native addons only where its store is the embedded one. */
    addons: false | 'embedded-store';
    wasi: boolean;
    /** May read the folders of PATH (to tell whether a program is installed). */
    path: boolean;
    /** Why each grant is given, for docs/security.md. */
    why: Partial<Record<'data' | 'childProcess' | 'worker' | 'addons' | 'wasi' | 'path', string>>;
  };
}
export const TOPOLOGY_FILE: string;
export function readTopology(file?: string): ProcessKind[];
export function addressVariable(service: string): string;
export const JOBS: Record<string, string>;
