// Types of mount.mjs: a runnable root filesystem from an image built here, for runc.
/** The parts of the image's config a runtime needs to start a process in it. */
export interface ImageConfig {
  /** The image's ENV, NAME=value; a container overlays its own (overlayEnv). */
  env: string[];
  /** The image's USER as written ("1000:1000", "node", ""): resolveUser makes it numeric. */
  user: string;
  /** The image's WORKDIR, "/" when unset. */
  workingDir: string;
  entrypoint: string[];
  cmd: string[];
}
export interface MountedImage {
  ref: string;
  imageId: string;
  /** The buildah working container holding the mount (named MOUNT_PREFIX...). */
  container: string;
  /** The merged root filesystem: give it to runc as root.path with root.readonly true. */
  rootfs: string;
  config: ImageConfig;
  /** Unmounts and removes the working container; safe to call more than once. */
  release(): Promise<void>;
}
export const MOUNT_PREFIX: string;
/** Mounts an image of buildah's local storage (never pulls), e.g. mountImage(imageRef('runtime')). */
export function mountImage(ref: string): Promise<MountedImage>;
/** The image's ENV with a Deployment's variables laid over it (same name: the override wins). */
export function overlayEnv(imageEnv: string[], overrides?: Record<string, string>): string[];
/** argv as Kubernetes composes it: command replaces ENTRYPOINT (and CMD), args replaces CMD. */
export function processArgs(
  config: ImageConfig,
  override?: { command?: string[]; args?: string[] },
): string[];
/** Numeric uid and gid of an image's USER, names looked up in the rootfs's /etc/passwd and /etc/group. */
export function resolveUser(rootfs: string, user: string): { uid: number; gid: number };
