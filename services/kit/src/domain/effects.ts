// How a rehearsal (dry run) lists what a write would do: each create and update with its field
// changes, and each event it would emit. Services wrap eventEffect with their own event type union.
import type { common } from '@fieldops/proto';

export const createEffect = (kind: string, id: string, changes: common.FieldChange[]): common.Effect => ({
  action: 'create',
  kind,
  id,
  changes,
});

export const updateEffect = (kind: string, id: string, changes: common.FieldChange[]): common.Effect => ({
  action: 'update',
  kind,
  id,
  changes,
});

/** An event a write would emit; kind is the event type, id the resource it is about. */
export const eventEffect = (type: string, id: string): common.Effect => ({
  action: 'event',
  kind: type,
  id,
  changes: [],
});
