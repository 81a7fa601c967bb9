// Leases on MongoDB: one document per lease in `fieldops.leases`, taken or renewed by one atomic
// findOneAndUpdate that matches only when the lease is free (no document, or its time ran out) or
// already this owner's. Time is the server's ($$NOW), so replicas' clocks need not agree.
// `generation` is the fencing token: the same update raises it when the lease is taken anew (it
// was free or ran out) and keeps it on a renewal; a release ends the time but keeps the document,
// so the count never starts again. A document of an older version has none and starts at 1.
import type { ClientSession, Connection, mongo } from 'mongoose';
import { checkLease } from '../leases.ts';
import { LeaseLost, type LeaseFence, type LeaseGrant } from '../port.ts';
import { isDuplicateKey } from './errors.ts';
import { LEASES_COLLECTION } from './schema.ts';

interface LeaseDoc {
  _id: string;
  owner: string;
  until: Date;
  generation?: number;
  fencedAt?: Date;
}

export class MongoLeases {
  private readonly leases: mongo.Collection<LeaseDoc>;

  private readonly maxTimeMS: number;
  constructor(connection: Connection, maxTimeMS: number) {
    this.maxTimeMS = maxTimeMS;
    const db = connection.db;
    if (db === undefined) throw new Error('the MongoDB connection has no database');
    this.leases = db.collection<LeaseDoc>(LEASES_COLLECTION, { readPreference: 'primary' });
  }

  async acquire(name: string, owner: string, ttlMs: number): Promise<LeaseGrant | null> {
    checkLease(name, owner, ttlMs);
    // A renewal: this owner's lease, still running. Anything else that matches is a new taking.
    const renewal = {
      $and: [{ $eq: ['$owner', owner] }, { $gt: ['$until', '$$NOW'] }, { $gt: ['$generation', 0] }],
    };
    try {
      const held = await this.leases.findOneAndUpdate(
        { _id: name, $or: [{ owner }, { $expr: { $lte: ['$until', '$$NOW'] } }] },
        [
          {
            $set: {
              generation: { $cond: [renewal, '$generation', { $add: [{ $ifNull: ['$generation', 0] }, 1] }] },
            },
          },
          { $set: { owner, until: { $add: ['$$NOW', ttlMs] } } },
        ],
        { upsert: true, returnDocument: 'after', maxTimeMS: this.maxTimeMS, writeConcern: { w: 'majority' } },
      );
      return held?.owner === owner ? { generation: held.generation ?? 1 } : null;
    } catch (error) {
      // Held by another owner and still running: the filter matched nothing, so the upsert tried
      // to insert a second document with the lease's _id.
      if (isDuplicateKey(error)) return null;
      throw error;
    }
  }

  /** Ends the owner's time at once; the document (and its generation) stays. */
  async release(name: string, owner: string): Promise<void> {
    await this.leases.updateOne(
      { _id: name, owner },
      { $set: { until: new Date(0) } },
      { maxTimeMS: this.maxTimeMS },
    );
  }

  /**
   * Inside the caller's transaction: writes the lease document only if the fence still holds, so
   * a concurrent taking conflicts with the transaction instead of slipping past it; else LeaseLost.
   */
  async check(fence: LeaseFence, session: ClientSession): Promise<void> {
    const { name, owner, generation } = fence;
    const held = await this.leases.updateOne(
      { _id: name, owner, generation },
      { $currentDate: { fencedAt: true } },
      { session },
    );
    if (held.matchedCount === 0) throw new LeaseLost(fence);
  }
}
