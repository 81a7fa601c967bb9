// Types of permissions.mjs for the TypeScript tests that import it.
import type { ProcessKind } from './topology.d.mts';

/** What one process may touch: the paths and powers its node --permission flags grant. */
export interface Grants {
  kind: string;
  read: string[];
  write: string[];
  childProcess: boolean;
  worker: boolean;
  addons: boolean;
  wasi: boolean;
}
export interface Places {
  code: string[];
  dataDir: string;
  scratchDir?: string;
  awsConfig: string;
  path: string[];
  tlsDir?: string;
  embeddedStore: boolean;
}
export const SECURITY_DOC: string;
export const PROC_SELF: string;
export const IMAGE_PATH: string[];
export const ADDON_LOADER_READS: string[];
export function outermost(paths: string[]): string[];
export function grantsOf(kind: ProcessKind, places: Places): Grants;
export function unionOf(grants: Grants[], kind?: string): Grants;
export function nodeFlags(grants: Grants, options?: { audit?: boolean }): string[];
export function describeGrants(grants: Grants): string;
export function permissionsTable(kinds?: ProcessKind[]): string;
export function securityDocWithTable(doc?: string): string;
export function tableContent(text: string): string;
export function documentedTable(doc?: string): string;
