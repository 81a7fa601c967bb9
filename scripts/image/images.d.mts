// Types of images.mjs: the names of the images `npm run image -- build` makes on this machine.
export type ImageTarget = 'runtime' | 'worker';
/** The tag every build moves: `dev`. */
export const DEFAULT_TAG: string;
/** Dockerfile target → image repository (localhost/fieldops, localhost/fieldops-worker). */
export const IMAGES: Record<ImageTarget, string>;
/** Where the local Node base is tagged, by the hash of its inputs: localhost/fieldops-base:<key>. */
export const BASE_REPOSITORY: string;
/** Process kinds that need COLMAP and so run from the worker image. */
export const WORKER_KINDS: string[];
/** repository:tag of a target's image; the tag defaults to DEFAULT_TAG. */
export function imageRef(target: ImageTarget, tag?: string): string;
/** The image a process kind (charts/fieldops/topology.yaml) runs from. */
export function imageForKind(kind: string, tag?: string): string;
/** `dev`, plus the 12-digit commit when the working tree is clean. */
export function buildTags(repo?: string): string[];
