// PLY point reader: ascii, binary_little_endian and binary_big_endian; vertex x/y/z of any scalar
// type; red/green/blue kept as 8-bit colour; other properties ignored. Elements declared before
// the vertex element are skipped; elements after it (faces) are never read.
import { readWith, yieldWith, type ByteQueue } from '../io/byte-queue.ts';
import { EngineError } from '../errors.ts';
import { MAX_PLY_ASCII_LINE_BYTES, MAX_PLY_HEADER_BYTES, POINT_CHUNK_SIZE } from '../limits.ts';
import type { ByteSource, PointChunk, PointReader } from '../types.ts';
import { TYPE_BYTES, parsePlyHeader } from './ply-header.ts';
import type { PlyElement, PlyHeader, PlyProperty, PlyScalarType } from './ply-header.ts';
import { PointBatch } from './point-batch.ts';

const END_HEADER = new TextEncoder().encode('end_header');
const UNKNOWN_UNIT = { name: 'unknown', metres: 1 } as const;

/** Vertex property names that carry colour, by channel, in the spellings tools write. */
const COLOR_NAMES = [
  ['red', 'r', 'diffuse_red'],
  ['green', 'g', 'diffuse_green'],
  ['blue', 'b', 'diffuse_blue'],
] as const;

interface VertexLayout {
  readonly index: { x: number; y: number; z: number; color?: [number, number, number] };
  readonly types: readonly PlyScalarType[];
  readonly offsets: readonly number[];
  readonly recordBytes: number;
}

export async function openPly(source: ByteSource): Promise<PointReader> {
  const header = await readHeader(source);
  const vertexAt = header.elements.findIndex((element) => element.name === 'vertex');
  const vertex = header.elements[vertexAt] as PlyElement;
  const layout = vertexLayout(vertex, source.name);
  let skipped = 0;

  // Faces after the vertices, or a consumer that stops early, leave bytes unread: yieldWith closes.
  async function* fromQueue(queue: ByteQueue): AsyncGenerator<PointChunk> {
    const headerBytes = await queue.readThrough(END_HEADER, MAX_PLY_HEADER_BYTES);
    if (!headerBytes) throw new EngineError('malformed', `${source.name}: the PLY header has no end_header.`);
    await skipLineEnd(queue);
    skipped = 0;
    const sink: Sink = {
      batch: new PointBatch(layout.index.color !== undefined),
      skip: () => void skipped++,
    };
    if (header.encoding === 'ascii') {
      yield* asciiPoints(queue, header.elements.slice(0, vertexAt), vertex, layout, sink, source.name);
    } else {
      yield* binaryPoints(queue, header, vertexAt, layout, sink, source.name);
    }
    if (sink.batch.count > 0) yield sink.batch.flush();
  }
  const points = () => yieldWith(source.open(), fromQueue);

  return {
    header: {
      format: 'ply',
      variant: header.encoding,
      declaredCount: vertex.count,
      hasColor: layout.index.color !== undefined,
      // PLY carries no CRS: the engine assumes metres unless the caller says otherwise.
      horizontalUnit: UNKNOWN_UNIT,
      verticalUnit: UNKNOWN_UNIT,
    },
    points,
    get skippedNonFinite() {
      return skipped;
    },
  };
}

async function readHeader(source: ByteSource): Promise<PlyHeader> {
  const bytes = await readWith(source.open(), (queue) => queue.readThrough(END_HEADER, MAX_PLY_HEADER_BYTES));
  if (!bytes) {
    throw new EngineError(
      'malformed',
      `${source.name}: no "end_header" within the first ${MAX_PLY_HEADER_BYTES} bytes; the PLY header is missing or cut off.`,
      source.name,
    );
  }
  return parsePlyHeader(new TextDecoder('latin1').decode(bytes), source.name);
}

/** The header line ends with \n or \r\n after "end_header". */
async function skipLineEnd(queue: ByteQueue): Promise<void> {
  const first = await queue.read(1);
  if (first[0] === 0x0d) await queue.read(1);
}

function vertexLayout(vertex: PlyElement, file: string): VertexLayout {
  const types: PlyScalarType[] = [];
  const offsets: number[] = [];
  let recordBytes = 0;
  for (const property of vertex.properties) {
    if (property.kind === 'list') {
      throw new EngineError(
        'unsupported_format',
        `${file}: the PLY vertex element has a list property "${property.name}"; point clouds with per-vertex lists are not supported.`,
        file,
      );
    }
    types.push(property.type);
    offsets.push(recordBytes);
    recordBytes += TYPE_BYTES[property.type];
  }
  const at = (name: string) => vertex.properties.findIndex((p) => p.name === name);
  const channels = COLOR_NAMES.map((names) => names.map(at).find((i) => i >= 0) ?? -1);
  const color = channels.every((i) => i >= 0) ? (channels as [number, number, number]) : undefined;
  return {
    index: { x: at('x'), y: at('y'), z: at('z'), ...(color ? { color } : {}) },
    types,
    offsets,
    recordBytes,
  };
}

/** Where decoders put points: a batch handed out when full, and a counter of skipped points. */
interface Sink {
  readonly batch: PointBatch;
  readonly skip: () => void;
}

function toByte(value: number, type: PlyScalarType): number {
  if (type === 'uint8') return value;
  if (type === 'uint16') return value >> 8;
  if (type === 'float32' || type === 'float64') return Math.max(0, Math.min(255, Math.round(value * 255)));
  return Math.max(0, Math.min(255, value));
}

/** Adds one point (or counts it as skipped); true when the batch is full and must be handed out. */
function accept(sink: Sink, x: number, y: number, z: number, rgb?: readonly number[]): boolean {
  if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) {
    sink.skip();
    return false;
  }
  if (rgb) sink.batch.push(x, y, z, rgb[0], rgb[1], rgb[2]);
  else sink.batch.push(x, y, z);
  return sink.batch.full;
}

// ---- binary ---------------------------------------------------------------------------------

function readScalar(view: DataView, offset: number, type: PlyScalarType, little: boolean): number {
  switch (type) {
    case 'int8':
      return view.getInt8(offset);
    case 'uint8':
      return view.getUint8(offset);
    case 'int16':
      return view.getInt16(offset, little);
    case 'uint16':
      return view.getUint16(offset, little);
    case 'int32':
      return view.getInt32(offset, little);
    case 'uint32':
      return view.getUint32(offset, little);
    case 'float32':
      return view.getFloat32(offset, little);
    case 'float64':
      return view.getFloat64(offset, little);
  }
}

async function* binaryPoints(
  queue: ByteQueue,
  header: PlyHeader,
  vertexAt: number,
  layout: VertexLayout,
  sink: Sink,
  file: string,
): AsyncGenerator<PointChunk> {
  const little = header.encoding === 'binary_little_endian';
  for (const element of header.elements.slice(0, vertexAt)) await skipBinaryElement(queue, element, file);
  const vertex = header.elements[vertexAt] as PlyElement;
  const { index, types, offsets, recordBytes } = layout;
  const [tx, ty, tz] = [types[index.x], types[index.y], types[index.z]] as PlyScalarType[];
  const [ox, oy, oz] = [offsets[index.x], offsets[index.y], offsets[index.z]] as number[];
  const color = index.color?.map((i) => ({ type: types[i] as PlyScalarType, offset: offsets[i] as number }));
  let read = 0;
  for await (const block of queue.records(recordBytes, vertex.count, POINT_CHUNK_SIZE)) {
    const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
    for (let at = 0; at < block.byteLength; at += recordBytes) {
      const x = readScalar(view, at + (ox as number), tx as PlyScalarType, little);
      const y = readScalar(view, at + (oy as number), ty as PlyScalarType, little);
      const z = readScalar(view, at + (oz as number), tz as PlyScalarType, little);
      const rgb = color?.map((c) => toByte(readScalar(view, at + c.offset, c.type, little), c.type));
      if (accept(sink, x, y, z, rgb)) yield sink.batch.flush();
    }
    read += block.byteLength / recordBytes;
  }
  if (read < vertex.count) {
    throw new EngineError(
      'truncated',
      `${file}: the PLY file ends after ${read} of the ${vertex.count} vertices it declares.`,
      file,
    );
  }
}

async function skipBinaryElement(queue: ByteQueue, element: PlyElement, file: string): Promise<void> {
  if (element.properties.some((p: PlyProperty) => p.kind === 'list')) {
    throw new EngineError(
      'unsupported_format',
      `${file}: the PLY element "${element.name}" before the vertices has list properties; put the vertex element first.`,
      file,
    );
  }
  let bytes = 0;
  for (const p of element.properties) if (p.kind === 'scalar') bytes += TYPE_BYTES[p.type];
  let remaining = bytes * element.count;
  while (remaining > 0) {
    const got = await queue.read(Math.min(remaining, 1 << 20));
    if (got.byteLength === 0) {
      throw new EngineError(
        'truncated',
        `${file}: the PLY file ends inside the "${element.name}" element.`,
        file,
      );
    }
    remaining -= got.byteLength;
  }
}

// ---- ascii ----------------------------------------------------------------------------------

const NON_FINITE_WORD = /^[+-]?(nan|inf|infinity)$/i;

async function* asciiPoints(
  queue: ByteQueue,
  before: readonly PlyElement[],
  vertex: PlyElement,
  layout: VertexLayout,
  sink: Sink,
  file: string,
): AsyncGenerator<PointChunk> {
  let toSkip = before.reduce((sum, element) => sum + element.count, 0);
  let read = 0;
  let lineNo = 0;
  const { index, types } = layout;
  const columns = types.length;
  for await (const line of queue.lines(MAX_PLY_ASCII_LINE_BYTES)) {
    lineNo++;
    if (line === null) {
      throw new EngineError(
        'malformed',
        `${file}: a line of the PLY body is longer than ${MAX_PLY_ASCII_LINE_BYTES} bytes.`,
        file,
      );
    }
    const text = line.trim();
    if (text === '') continue;
    if (toSkip > 0) {
      toSkip--;
      continue;
    }
    const words = text.split(/\s+/);
    if (words.length < columns) {
      throw new EngineError(
        'malformed',
        `${file}: vertex ${read + 1} (body line ${lineNo}) has ${words.length} values; the header declares ${columns}.`,
        file,
      );
    }
    const value = (i: number): number => {
      const word = words[i] ?? '';
      const number = Number(word);
      if (Number.isNaN(number) && !NON_FINITE_WORD.test(word)) {
        throw new EngineError(
          'malformed',
          `${file}: vertex ${read + 1} (body line ${lineNo}) has "${word.slice(0, 40)}" where a number belongs.`,
          file,
        );
      }
      return number;
    };
    const rgb = index.color?.map((i) => toByte(value(i), types[i] as PlyScalarType));
    if (accept(sink, value(index.x), value(index.y), value(index.z), rgb)) yield sink.batch.flush();
    if (++read === vertex.count) return;
  }
  if (read < vertex.count) {
    throw new EngineError(
      'truncated',
      `${file}: the PLY file ends after ${read} of the ${vertex.count} vertices it declares.`,
      file,
    );
  }
}
