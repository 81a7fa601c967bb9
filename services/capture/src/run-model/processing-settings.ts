// The project's persisted processing choice (mode and engine): what a bare POST /process uses.
// Kept by capture, one document per project (id = project id); an explicit mode or engine in a
// process call replaces it. Written in the same commit as the run it was chosen for.
import type { CaptureEngine, CaptureMode } from '@fieldops/contracts';
import { nowIso } from '@fieldops/kit';
import type { Doc, DocumentStore, WriteOp } from '@fieldops/kit/store';
import { PROCESSING_SETTINGS } from '../collections.ts';

export interface ProcessingSettingsDoc extends Doc {
  mode?: CaptureMode;
  engine?: CaptureEngine;
  updatedAt: string;
}

export const readProcessingSettings = (store: DocumentStore, tenantId: string, projectId: string) =>
  store.get<ProcessingSettingsDoc>(PROCESSING_SETTINGS, tenantId, projectId);

/** The write that persists a new choice, or nothing when the choice is unchanged. */
export function persistChoice(
  tenantId: string,
  projectId: string,
  current: ProcessingSettingsDoc | null,
  choice: { mode?: CaptureMode; engine?: CaptureEngine },
): WriteOp[] {
  const next = { mode: choice.mode ?? current?.mode, engine: choice.engine ?? current?.engine };
  if (current && current.mode === next.mode && current.engine === next.engine) return [];
  const doc: ProcessingSettingsDoc = {
    id: projectId,
    tenantId,
    version: current ? current.version + 1 : 1,
    ...(next.mode ? { mode: next.mode } : {}),
    ...(next.engine ? { engine: next.engine } : {}),
    updatedAt: nowIso(),
  };
  return current
    ? [{ op: 'replace', collection: PROCESSING_SETTINGS, doc, expectedVersion: current.version }]
    : [{ op: 'insert', collection: PROCESSING_SETTINGS, doc }];
}
