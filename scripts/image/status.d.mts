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
  /** Names of working containers mountImage made and nobody released. */
  mounts: string[];
}>;
