// Leases on MongoDB: one document per lease in `fieldops.leases`, taken or renewed by one atomic
// findOneAndUpdate that matches only when the lease is free (no document, or its time ran out) or
// already this owner's. Time is the server's ($$NOW), so replicas' clocks need not agree.
import type { Connection, mongo } from 'mongoose';
import { checkLease } from '../leases.js';
import { isDuplicateKey } from './errors.js';
import { LEASES_COLLECTION } from './schema.js';

interface LeaseDoc {
  _id: string;
  owner: string;
  until: Date;
}

export class MongoLeases {
  private readonly leases: mongo.Collection<LeaseDoc>;

  constructor(
    connection: Connection,
    private readonly maxTimeMS: number,
  ) {
    const db = connection.db;
    if (db === undefined) throw new Error('the MongoDB connection has no database');
    this.leases = db.collection<LeaseDoc>(LEASES_COLLECTION, { readPreference: 'primary' });
  }

  async acquire(name: string, owner: string, ttlMs: number): Promise<boolean> {
    checkLease(name, owner, ttlMs);
    try {
      const held = await this.leases.findOneAndUpdate(
        { _id: name, $or: [{ owner }, { $expr: { $lte: ['$until', '$$NOW'] } }] },
        [{ $set: { owner, until: { $add: ['$$NOW', ttlMs] } } }],
        { upsert: true, returnDocument: 'after', maxTimeMS: this.maxTimeMS, writeConcern: { w: 'majority' } },
      );
      return held?.owner === owner;
    } catch (error) {
      // Held by another owner and still running: the filter matched nothing, so the upsert tried
      // to insert a second document with the lease's _id.
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async release(name: string, owner: string): Promise<void> {
    await this.leases.deleteOne({ _id: name, owner }, { maxTimeMS: this.maxTimeMS });
  }
}
