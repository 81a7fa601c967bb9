// One scenario alone: k6 run -e BASE_URL=... -e TOKEN=... loadtest/k6/agent-confirm.ts
import { agentConfirm } from '../scenarios/index.ts';
import { iterate, optionsFor, setupAll, type SetupData } from './driver.ts';

export const options = optionsFor([agentConfirm]);
export const setup = (): SetupData => setupAll([agentConfirm]);
export const agent_confirm = (data: SetupData): void => iterate(agentConfirm, data);
