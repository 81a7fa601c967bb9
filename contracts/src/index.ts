export * from './lead-status.machine.js';
export * from './customer-stage.machine.js';
