// One scenario alone: k6 run -e BASE_URL=... -e TOKEN=... loadtest/k6/capture-upload.ts
import { captureUpload } from '../scenarios/index.ts';
import { iterate, optionsFor, setupAll, type SetupData } from './driver.ts';

export const options = optionsFor([captureUpload]);
export const setup = (): SetupData => setupAll([captureUpload]);
export const capture_upload = (data: SetupData): void => iterate(captureUpload, data);
