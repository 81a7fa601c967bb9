// Types for the two calls of fs-native-extensions the directory lock uses (the package ships none).
declare module 'fs-native-extensions' {
  /** An exclusive (or shared) OS lock on an open file: true when granted, false when held elsewhere. */
  export function tryLock(fd: number, options?: { shared?: boolean }): boolean;
  export function unlock(fd: number): void;
}
