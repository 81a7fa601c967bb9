// k6 has a console, but @types/k6 does not declare one and this program has no DOM or Node types.
declare global {
  const console: {
    log(...data: unknown[]): void;
    warn(...data: unknown[]): void;
    error(...data: unknown[]): void;
  };
}

export {};
