// The PLY header (Greg Turk's format, as written by CloudCompare, Meshlab, PDAL, Open3D):
//   ply
//   format ascii|binary_little_endian|binary_big_endian 1.0
//   comment …
//   element vertex 123
//   property float x          (scalar: type name)
//   property list uchar int vertex_indices
//   end_header
import { EngineError } from '../errors.ts';
import { MAX_POINT_COUNT } from '../limits.ts';

export type PlyEncoding = 'ascii' | 'binary_little_endian' | 'binary_big_endian';

export type PlyScalarType =
  'int8' | 'uint8' | 'int16' | 'uint16' | 'int32' | 'uint32' | 'float32' | 'float64';

/** Both the classic names (char, uchar, …) and the sized ones (int8, uint8, …) appear in the wild. */
const TYPE_NAMES: Record<string, PlyScalarType> = {
  char: 'int8',
  int8: 'int8',
  uchar: 'uint8',
  uint8: 'uint8',
  short: 'int16',
  int16: 'int16',
  ushort: 'uint16',
  uint16: 'uint16',
  int: 'int32',
  int32: 'int32',
  uint: 'uint32',
  uint32: 'uint32',
  float: 'float32',
  float32: 'float32',
  double: 'float64',
  float64: 'float64',
};

export const TYPE_BYTES: Record<PlyScalarType, number> = {
  int8: 1,
  uint8: 1,
  int16: 2,
  uint16: 2,
  int32: 4,
  uint32: 4,
  float32: 4,
  float64: 8,
};

export type PlyProperty =
  | { readonly kind: 'scalar'; readonly name: string; readonly type: PlyScalarType }
  | {
      readonly kind: 'list';
      readonly name: string;
      readonly countType: PlyScalarType;
      readonly itemType: PlyScalarType;
    };

export interface PlyElement {
  readonly name: string;
  readonly count: number;
  readonly properties: readonly PlyProperty[];
}

export interface PlyHeader {
  readonly encoding: PlyEncoding;
  readonly elements: readonly PlyElement[];
}

export function parsePlyHeader(text: string, file: string): PlyHeader {
  const lines = text.split('\n').map((line) => line.replace(/\r$/, '').trim());
  const fail = (lineNo: number, what: string): never => {
    throw new EngineError('malformed', `${file}: PLY header line ${lineNo + 1} ${what}.`, file);
  };
  if (lines[0] !== 'ply') fail(0, 'should be "ply"');
  let encoding: PlyEncoding | undefined;
  const elements: { name: string; count: number; properties: PlyProperty[] }[] = [];
  for (let i = 1; i < lines.length; i++) {
    const words = (lines[i] ?? '').split(/\s+/);
    const keyword = words[0];
    if (keyword === '' || keyword === 'comment' || keyword === 'obj_info') continue;
    if (keyword === 'end_header') break;
    if (keyword === 'format') {
      const [, name, version] = words;
      if (name !== 'ascii' && name !== 'binary_little_endian' && name !== 'binary_big_endian') {
        throw new EngineError(
          'unsupported_format',
          `${file}: PLY format "${name ?? ''}" is not ascii or binary.`,
          file,
        );
      }
      if (version !== '1.0') fail(i, `states version ${version ?? '(none)'}; only 1.0 exists`);
      encoding = name;
    } else if (keyword === 'element') {
      const count = Number(words[2]);
      if (words.length !== 3 || !words[1] || !Number.isSafeInteger(count) || count < 0) {
        fail(i, 'should read "element <name> <count>"');
      }
      elements.push({ name: words[1] ?? '', count, properties: [] });
    } else if (keyword === 'property') {
      const element = elements.at(-1);
      if (!element) return fail(i, 'declares a property before any element');
      element.properties.push(parseProperty(words, () => fail(i, 'is not a valid property declaration')));
    } else {
      fail(i, `has the unknown keyword "${keyword ?? ''}"`);
    }
  }
  if (!encoding) return fail(1, 'is missing: no "format" line');
  const vertex = elements.find((element) => element.name === 'vertex');
  if (!vertex)
    throw new EngineError('malformed', `${file}: the PLY header declares no vertex element.`, file);
  for (const axis of ['x', 'y', 'z']) {
    const property = vertex.properties.find((p) => p.name === axis);
    if (!property || property.kind !== 'scalar') {
      throw new EngineError(
        'malformed',
        `${file}: the PLY vertex element has no scalar "${axis}" property.`,
        file,
      );
    }
  }
  if (vertex.count > MAX_POINT_COUNT) {
    throw new EngineError(
      'too_large',
      `${file}: declares ${vertex.count} points; the engine reads at most ${MAX_POINT_COUNT}.`,
      file,
    );
  }
  return { encoding, elements };
}

function parseProperty(words: string[], fail: () => never): PlyProperty {
  if (words[1] === 'list') {
    const countType = TYPE_NAMES[words[2] ?? ''];
    const itemType = TYPE_NAMES[words[3] ?? ''];
    if (words.length !== 5 || !countType || !itemType || countType.startsWith('float')) fail();
    return { kind: 'list', countType, itemType, name: words[4] ?? '' };
  }
  const type = TYPE_NAMES[words[1] ?? ''];
  if (words.length !== 3 || !type) return fail();
  return { kind: 'scalar', type, name: words[2] ?? '' };
}
