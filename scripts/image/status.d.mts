// Types of status.mjs: what `npm run image -- status` reports.
export interface StoredImage {
  ref: string;
  /** Absent when buildah's storage has no image of that reference. */
  id?: string;
  size?: string;
  created?: string;
  /** The fieldops.base.key label: the key of the base it was built on. */
  baseKey?: string;
}
export function imageStatus(options?: { repo?: string; tag?: string }): Promise<{
  /** The key of the base the current inputs make. */
  baseKey: string;
  cacheDir: string;
  /** The current base, then the runtime and worker images of the tag (default `dev`). */
  images: StoredImage[];
  /** localhost/fieldops-base tags of other keys. */
  otherBases: string[];
  /** Working containers mountImage made and nobody released, with the pid that made each. */
  mounts: { name: string; pid: number; alive: boolean }[];
}>;
