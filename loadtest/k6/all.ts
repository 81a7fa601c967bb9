// Every scenario at once, each with its own VUs and thresholds (narrow with -e SCENARIOS=a,b):
//   k6 run -e BASE_URL=https://api.example.com -e TOKEN=... loadtest/k6/all.ts
import { agentConfirm, captureUpload, keyedWrites, readHeavy, SCENARIOS } from '../scenarios/index.ts';
import { iterate, optionsFor, selected, setupAll, type SetupData } from './driver.ts';

const scenarios = selected(SCENARIOS);

export const options = optionsFor(scenarios);
export const setup = (): SetupData => setupAll(scenarios);

export const read_heavy = (data: SetupData): void => iterate(readHeavy, data);
export const keyed_writes = (data: SetupData): void => iterate(keyedWrites, data);
export const capture_upload = (data: SetupData): void => iterate(captureUpload, data);
export const agent_confirm = (data: SetupData): void => iterate(agentConfirm, data);
