// Types of processes.mjs for the tests.
export interface ProcessRecord {
  pid: number;
  startTicks: string;
  script: string;
}
/** SIGKILLs the process and its descendants; false when it was not running. */
export function killTree(record: ProcessRecord): boolean;
export function isRunning(record: ProcessRecord | undefined): boolean;
