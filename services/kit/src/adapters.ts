// Chooses each port's adapter from the configuration: the embedded defaults under the data dir,
// or the production adapter when its variable is set (ARCHITECTURE §3).
import { join } from 'node:path';
import type { Config } from './config.js';
import { openEmbeddedEventLog } from './events/embedded.js';
import type { EventLog } from './events/port.js';
import { createEmbeddedFastState } from './fast/embedded.js';
import type { FastState } from './fast/port.js';
import { connectRedisFastState } from './fast/redis.js';
import { openEmbeddedStore } from './store/embedded.js';
import type { DocumentStore } from './store/port.js';

/** Each service owns its own store: its own folder, its own collections. */
export function openServiceStore(config: Config, service: string): Promise<DocumentStore> {
  return openEmbeddedStore({ dir: join(config.dataDir, service), fsync: config.fsync });
}

export function openEventLog(config: Config): Promise<EventLog> {
  return openEmbeddedEventLog({ dir: join(config.dataDir, 'events'), fsync: config.fsync });
}

export async function openFastState(config: Config): Promise<FastState> {
  return config.redisUrl ? connectRedisFastState({ url: config.redisUrl }) : createEmbeddedFastState();
}
