// Types of build.mjs: the Dockerfile's targets built with buildah from the local base.
import type { ImageTarget } from './images.mjs';
/** The host's CA bundle bound over the image's for RUN steps only, if the host has one. */
export function hostCaBundle(): string | undefined;
export function budArgs(options: {
  base: string;
  target: ImageTarget;
  tags: string[];
  caBundle?: string;
}): string[];
export interface BuiltImage {
  target: ImageTarget;
  /** Every reference it was tagged with: `dev` first. */
  refs: string[];
  id: string | undefined;
  seconds: number;
}
export function buildImages(options?: {
  repo?: string;
  targets?: ImageTarget[];
  tags?: string[];
  log?: (line: string) => void;
}): Promise<{
  base: { ref: string; key: string; id: string | undefined; reused: boolean; seconds: number };
  images: BuiltImage[];
  seconds: number;
}>;
