// One scenario alone: k6 run -e BASE_URL=... -e TOKEN=... loadtest/k6/read-heavy.ts
import { readHeavy } from '../scenarios/index.ts';
import { iterate, optionsFor, setupAll, type SetupData } from './driver.ts';

export const options = optionsFor([readHeavy]);
export const setup = (): SetupData => setupAll([readHeavy]);
export const read_heavy = (data: SetupData): void => iterate(readHeavy, data);
