// How most HTTP suites start: a platform with one tenant, stopped after the file's tests. Kept out
// of harness.ts because it registers a jest hook, and the harness is also used outside jest
// (scripts/event-latency.ts).
import { afterAll } from '@jest/globals';
import { startTestPlatform, type TestPlatform } from './harness.js';

/** A platform of the suite with one tenant and its Manager client (`TestPlatform.tenant`). */
export type SuiteTenant = { platform: TestPlatform } & Awaited<ReturnType<TestPlatform['tenant']>>;

/**
 * How most HTTP suites start, awaited at the top of the test file: a fresh platform with one
 * tenant, stopped after the file's tests. The stop is registered here, so no suite forgets it or
 * stops twice; a tenant that cannot be created stops the platform before the file fails to load.
 */
export async function suiteTenant(
  tenantName: string,
  env: Record<string, string> = {},
): Promise<SuiteTenant> {
  const platform = await startTestPlatform(env);
  try {
    const tenant = await platform.tenant(tenantName);
    afterAll(() => platform.stop());
    return { platform, ...tenant };
  } catch (err) {
    await platform.stop();
    throw err;
  }
}
