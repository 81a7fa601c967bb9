// Types of images.mjs: the names of the images `npm run image -- build` makes on this machine.
export type ImageTarget = 'runtime' | 'worker';
/** The tag every build moves: `dev`. */
export const DEFAULT_TAG: string;
/** Dockerfile target → image repository (localhost/fieldops, localhost/fieldops-worker). */
export const IMAGES: Record<ImageTarget, string>;
/** Where the local Node base is tagged, by the hash of its inputs: localhost/fieldops-base:<key>. */
export const BASE_REPOSITORY: string;
/** topology.yaml's `image` of a kind → the Dockerfile target that builds it. */
export const TOPOLOGY_TARGETS: Record<'app' | 'worker', ImageTarget>;
/** repository:tag of a target's image; the tag defaults to DEFAULT_TAG. */
export function imageRef(target: ImageTarget, tag?: string): string;
/** The image a process (topology.yaml's `process`, or a job) runs from, by topology's `image`. */
export function imageForKind(processName: string, tag?: string): string;
/** `dev`, plus the 12-digit commit when the working tree is clean. */
export function buildTags(repo?: string): string[];
