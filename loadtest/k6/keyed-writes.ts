// One scenario alone: k6 run -e BASE_URL=... -e TOKEN=... loadtest/k6/keyed-writes.ts
import { keyedWrites } from '../scenarios/index.ts';
import { iterate, optionsFor, setupAll, type SetupData } from './driver.ts';

export const options = optionsFor([keyedWrites]);
export const setup = (): SetupData => setupAll([keyedWrites]);
export const keyed_writes = (data: SetupData): void => iterate(keyedWrites, data);
