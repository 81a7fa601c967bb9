// LAZ for the tests, written from a LAS file the tests generate. No maintained LAZ encoder can be
// installed here: laz-perf (the decoder the engine uses) only decodes, npm has no other, Debian 12
// packages neither PDAL nor laszip, and the laszip4j 0.20 command line (Maven Central) wrote files
// cut short after their header. So this is LASzip's own compression, written from its
// specification (LASzip's arithmeticencoder.cpp, integercompressor.cpp and
// laswriteitemcompressed_v2.cpp), for what the generated files hold: point format 0 whose only
// varying fields are X, Y and Z (so every "changed values" symbol is 0, and only the coordinate
// differences are coded, against the running medians LASzip predicts them from). Points go in
// chunks of `chunkPoints` (the first raw, the rest arithmetic-coded), and the chunk table at the
// end is coded with LASzip's integer compressor. laz-perf reads the result with its own whole-file
// reader as well as chunk by chunk (test/laz.test.ts), so the bytes are LAZ as LASzip writes it.
import {
  AC_MAX_LENGTH,
  AC_MIN_LENGTH,
  BM_LENGTH_SHIFT,
  BitModel,
  DM_LENGTH_SHIFT,
  SymbolModel,
} from '../src/readers/laz/laszip-arithmetic.ts';

/** LASzip's ArithmeticEncoder (arithmeticencoder.cpp), writing into a growing array. */
class RangeEncoder {
  private base = 0;
  private length = AC_MAX_LENGTH;
  readonly out: number[] = [];

  private add(x: number): void {
    const sum = this.base + x;
    if (sum >= 2 ** 32) {
      this.propagateCarry();
      this.base = sum - 2 ** 32;
    } else {
      this.base = sum;
    }
  }

  private propagateCarry(): void {
    let p = this.out.length - 1;
    while (this.out[p] === 0xff) this.out[p--] = 0;
    this.out[p] = (this.out[p] as number) + 1;
  }

  private renormalize(): void {
    do {
      this.out.push(this.base >>> 24);
      this.base = (this.base << 8) >>> 0;
      this.length = (this.length << 8) >>> 0;
    } while (this.length < AC_MIN_LENGTH);
  }

  encodeBit(m: BitModel, bit: number): void {
    const x = m.bit0Prob * (this.length >>> BM_LENGTH_SHIFT);
    if (bit === 0) {
      this.length = x;
      m.bit0Count++;
    } else {
      this.add(x);
      this.length -= x;
    }
    if (this.length < AC_MIN_LENGTH) this.renormalize();
    if (--m.bitsUntilUpdate === 0) m.update();
  }

  encodeSymbol(m: SymbolModel, sym: number): void {
    if (sym === m.lastSymbol) {
      const x = (m.distribution[sym] as number) * (this.length >>> DM_LENGTH_SHIFT);
      this.add(x);
      this.length -= x;
    } else {
      this.length >>>= DM_LENGTH_SHIFT;
      const x = (m.distribution[sym] as number) * this.length;
      this.add(x);
      this.length = (m.distribution[sym + 1] as number) * this.length - x;
    }
    if (this.length < AC_MIN_LENGTH) this.renormalize();
    m.symbolCount[sym] = (m.symbolCount[sym] as number) + 1;
    if (--m.symbolsUntilUpdate === 0) m.update();
  }

  writeBits(bits: number, sym: number): void {
    if (bits > 19) {
      this.writeBits(16, sym & 0xffff);
      this.writeBits(bits - 16, sym >>> 16);
      return;
    }
    this.length >>>= bits;
    this.add(sym * this.length);
    if (this.length < AC_MIN_LENGTH) this.renormalize();
  }

  /** The final bytes, then two or three zeros to keep in step with the decoder's reads. */
  done(): number[] {
    const wide = this.length > 2 * AC_MIN_LENGTH;
    this.add(wide ? AC_MIN_LENGTH : AC_MIN_LENGTH >>> 1);
    this.length = wide ? AC_MIN_LENGTH >>> 1 : AC_MIN_LENGTH >>> 9;
    this.renormalize();
    this.out.push(0, 0);
    if (wide) this.out.push(0);
    return this.out;
  }
}

/** LASzip's IntegerCompressor (32 bits, bits_high 8), compressing. */
class IntegerCompressor {
  private readonly bitsModels: SymbolModel[];
  private readonly corrector0 = new BitModel();
  private readonly correctors: SymbolModel[] = [];
  /** The magnitude class of the last corrector (LASzip's getK), a context for the next field. */
  k = 0;

  private readonly encoder: RangeEncoder;
  constructor(encoder: RangeEncoder, contexts: number) {
    this.encoder = encoder;
    this.bitsModels = Array.from({ length: contexts }, () => new SymbolModel(33));
    for (let k = 1; k <= 32; k++) this.correctors[k] = new SymbolModel(1 << Math.min(k, 8));
  }

  compress(prediction: number, real: number, context: number): void {
    const c = (real - prediction) | 0;
    let magnitude = c <= 0 ? -c : c - 1;
    let k = 0;
    while (magnitude > 0) {
      magnitude = Math.floor(magnitude / 2);
      k++;
    }
    this.k = k;
    this.encoder.encodeSymbol(this.bitsModels[context] as SymbolModel, k);
    if (k === 0) {
      this.encoder.encodeBit(this.corrector0, c);
      return;
    }
    if (k >= 32) return;
    const shifted = c < 0 ? c + (2 ** k - 1) : c - 1;
    if (k <= 8) {
      this.encoder.encodeSymbol(this.correctors[k] as SymbolModel, shifted);
    } else {
      const low = k - 8;
      this.encoder.encodeSymbol(this.correctors[k] as SymbolModel, Math.floor(shifted / 2 ** low));
      this.encoder.writeBits(low, shifted % 2 ** low);
    }
  }
}

/**
 * The chunk table: version 0, the count, then each chunk's byte size coded against the last one's
 * (preceded by its point count, coded the same way, when chunks vary in size).
 */
function chunkTable(chunkBytes: readonly number[], chunkPoints?: readonly number[]): Uint8Array {
  const encoder = new RangeEncoder();
  const integers = new IntegerCompressor(encoder, 2);
  chunkBytes.forEach((bytes, i) => {
    if (chunkPoints)
      integers.compress(i > 0 ? (chunkPoints[i - 1] as number) : 0, chunkPoints[i] as number, 0);
    integers.compress(i > 0 ? (chunkBytes[i - 1] as number) : 0, bytes, 1);
  });
  const coded = encoder.done();
  const table = new Uint8Array(8 + coded.length);
  new DataView(table.buffer).setUint32(4, chunkBytes.length, true);
  table.set(coded, 8);
  return table;
}

/** LASzip's StreamingMedian5: the median of the last five values, kept sorted as they come. */
class Median5 {
  private readonly v = [0, 0, 0, 0, 0];
  private high = true;

  get(): number {
    return this.v[2] as number;
  }

  add(x: number): void {
    const v = this.v as [number, number, number, number, number];
    if (this.high) {
      if (x < v[2]) {
        v[4] = v[3];
        v[3] = v[2];
        if (x < v[0]) {
          v[2] = v[1];
          v[1] = v[0];
          v[0] = x;
        } else if (x < v[1]) {
          v[2] = v[1];
          v[1] = x;
        } else {
          v[2] = x;
        }
      } else {
        if (x < v[3]) {
          v[4] = v[3];
          v[3] = x;
        } else {
          v[4] = x;
        }
        this.high = false;
      }
    } else if (v[2] < x) {
      v[0] = v[1];
      v[1] = v[2];
      if (v[4] < x) {
        v[2] = v[3];
        v[3] = v[4];
        v[4] = x;
      } else if (v[3] < x) {
        v[2] = v[3];
        v[3] = x;
      } else {
        v[2] = x;
      }
    } else {
      if (v[1] < x) {
        v[0] = v[1];
        v[1] = x;
      } else {
        v[0] = x;
      }
      this.high = true;
    }
  }
}

const evenBelow = (k: number, cap: number): number => (k < cap ? k & ~1 : cap);

/**
 * One chunk of format-0 points (LASzip's POINT10 v2 compressor): the first raw, then for each
 * point the changed-values symbol (0: only X, Y, Z vary) and the coordinate differences. Return
 * number and count are 0, so LASzip's return map puts every point in median slot 15 and height
 * level 0, and "single return" is false (context 0).
 */
function compressChunk(records: Uint8Array, recordBytes: number): Uint8Array {
  const view = new DataView(records.buffer, records.byteOffset, records.byteLength);
  const encoder = new RangeEncoder();
  const changed = new SymbolModel(64);
  const dx = new IntegerCompressor(encoder, 2);
  const dy = new IntegerCompressor(encoder, 22);
  const dz = new IntegerCompressor(encoder, 20);
  const medianX = new Median5();
  const medianY = new Median5();
  let [x, y] = [view.getInt32(0, true), view.getInt32(4, true)];
  // LASzip predicts a height from the last one of its level, which starts at 0, not the raw point's.
  let lastHeight = 0;
  for (let at = recordBytes; at < records.byteLength; at += recordBytes) {
    encoder.encodeSymbol(changed, 0);
    const nx = view.getInt32(at, true);
    const ny = view.getInt32(at + 4, true);
    const nz = view.getInt32(at + 8, true);
    const diffX = (nx - x) | 0;
    dx.compress(medianX.get(), diffX, 0);
    medianX.add(diffX);
    const diffY = (ny - y) | 0;
    dy.compress(medianY.get(), diffY, evenBelow(dx.k, 20));
    medianY.add(diffY);
    dz.compress(lastHeight, nz, evenBelow(Math.floor((dx.k + dy.k) / 2), 18));
    [x, y, lastHeight] = [nx, ny, nz];
  }
  const coded = encoder.done();
  const chunk = new Uint8Array(recordBytes + coded.length);
  chunk.set(records.subarray(0, recordBytes), 0);
  chunk.set(coded, recordBytes);
  return chunk;
}

/** A chunk size of all ones: chunks vary in size and the table holds their counts (as COPC writes). */
const VARIABLE_CHUNKS = 0xffffffff;

function laszipRecord(chunkPoints: number): Uint8Array {
  const data = new Uint8Array(34 + 6);
  const view = new DataView(data.buffer);
  view.setUint16(0, 2, true); // compressor: point-wise, chunked
  view.setUint8(4, 2); // LASzip 2.2
  view.setUint8(5, 2);
  view.setUint32(12, chunkPoints, true);
  view.setBigInt64(16, -1n, true); // no special EVLRs
  view.setBigInt64(24, -1n, true);
  view.setUint16(32, 1, true);
  [6, 20, 2].forEach((v, j) => view.setUint16(34 + 2 * j, v, true)); // POINT10, 20 bytes, v2
  const record = new Uint8Array(54 + data.byteLength);
  const rv = new DataView(record.buffer);
  record.set(new TextEncoder().encode('laszip encoded'), 2);
  rv.setUint16(18, 22204, true);
  rv.setUint16(20, data.byteLength, true);
  record.set(data, 54);
  return record;
}

/**
 * The LAZ twin of a LAS file of point format 0 whose points vary only in X, Y and Z, in chunks of
 * `chunkPoints`, or, given a list, in chunks of those sizes in turn with the sizes in the table.
 */
export function lasToLaz(lasBytes: Uint8Array, chunkPoints: number | readonly number[] = 50_000): Uint8Array {
  const view = new DataView(lasBytes.buffer, lasBytes.byteOffset, lasBytes.byteLength);
  const pointDataOffset = view.getUint32(96, true);
  const recordBytes = view.getUint16(105, true);
  if (view.getUint8(104) !== 0 || recordBytes !== 20) throw new Error('lasToLaz writes point format 0');
  const points = lasBytes.subarray(pointDataOffset);
  for (let at = 0; at < points.byteLength; at += recordBytes) {
    if (points.subarray(at + 12, at + recordBytes).some((b) => b !== 0)) {
      throw new Error('lasToLaz writes points whose fields other than X, Y, Z are 0');
    }
  }
  const chunks: Uint8Array[] = [];
  const counts: number[] = [];
  for (let at = 0, i = 0; at < points.byteLength; i++) {
    const size =
      typeof chunkPoints === 'number' ? chunkPoints : (chunkPoints[i % chunkPoints.length] as number);
    const count = Math.min(size, (points.byteLength - at) / recordBytes);
    chunks.push(compressChunk(points.subarray(at, at + count * recordBytes), recordBytes));
    counts.push(count);
    at += count * recordBytes;
  }
  const variable = typeof chunkPoints !== 'number';
  const vlr = laszipRecord(variable ? VARIABLE_CHUNKS : chunkPoints);
  const chunksAt = pointDataOffset + vlr.byteLength + 8;
  const tableAt = chunksAt + chunks.reduce((n, c) => n + c.byteLength, 0);
  const table = chunkTable(
    chunks.map((c) => c.byteLength),
    variable ? counts : undefined,
  );
  const out = new Uint8Array(tableAt + table.byteLength);
  const ov = new DataView(out.buffer);
  out.set(lasBytes.subarray(0, pointDataOffset), 0);
  out.set(vlr, pointDataOffset);
  ov.setUint32(96, pointDataOffset + vlr.byteLength, true);
  ov.setUint32(100, view.getUint32(100, true) + 1, true);
  ov.setUint8(104, 0x80);
  ov.setBigInt64(chunksAt - 8, BigInt(tableAt), true);
  chunks.reduce((at, c) => (out.set(c, at), at + c.byteLength), chunksAt);
  out.set(table, tableAt);
  return out;
}
