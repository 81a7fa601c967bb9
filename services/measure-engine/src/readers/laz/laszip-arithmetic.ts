// The arithmetic decoder of LASzip, only as far as a LAZ chunk table needs it: the table's chunk
// sizes (and point counts, for variable-size chunks) are written with LASzip's integer compressor
// (32 bits, 2 contexts) over its range coder. laz-perf decodes the points but exposes no way to
// read the table without the whole file in memory, and the table is what lets the reader stream
// the points chunk by chunk. Constants and update rules follow LASzip's arithmeticdecoder.cpp,
// arithmeticmodel.cpp and integercompressor.cpp (the LAZ specification defers to that code).

/** The coder's constants; the test fixtures' LAZ writer shares them. */
export const AC_MIN_LENGTH = 0x01000000;
export const AC_MAX_LENGTH = 0xffffffff;
export const BM_LENGTH_SHIFT = 13;
const BM_MAX_COUNT = 1 << BM_LENGTH_SHIFT;
export const DM_LENGTH_SHIFT = 15;
const DM_MAX_COUNT = 1 << DM_LENGTH_SHIFT;

/** An adaptive model over `symbols` symbols (LASzip's ArithmeticModel, decoder side). */
export class SymbolModel {
  readonly distribution: Uint32Array;
  readonly symbolCount: Uint32Array;
  readonly decoderTable: Uint32Array | undefined;
  readonly tableShift: number;
  readonly lastSymbol: number;
  private totalCount = 0;
  private updateCycle: number;
  symbolsUntilUpdate: number;

  readonly symbols: number;
  constructor(symbols: number) {
    this.symbols = symbols;
    let tableBits = 0;
    if (symbols > 16) {
      tableBits = 3;
      while (symbols > 1 << (tableBits + 2)) tableBits++;
      this.decoderTable = new Uint32Array((1 << tableBits) + 2);
    }
    this.tableShift = symbols > 16 ? DM_LENGTH_SHIFT - tableBits : 0;
    this.lastSymbol = symbols - 1;
    this.distribution = new Uint32Array(symbols);
    this.symbolCount = new Uint32Array(symbols).fill(1);
    this.updateCycle = symbols;
    this.symbolsUntilUpdate = symbols;
    this.update();
    this.updateCycle = (symbols + 6) >>> 1;
    this.symbolsUntilUpdate = this.updateCycle;
  }

  update(): void {
    this.totalCount += this.updateCycle;
    if (this.totalCount > DM_MAX_COUNT) {
      this.totalCount = 0;
      for (let n = 0; n < this.symbols; n++) {
        this.symbolCount[n] = ((this.symbolCount[n] as number) + 1) >>> 1;
        this.totalCount += this.symbolCount[n] as number;
      }
    }
    const scale = Math.floor(0x80000000 / this.totalCount);
    const table = this.decoderTable;
    let sum = 0;
    let s = 0;
    for (let k = 0; k < this.symbols; k++) {
      this.distribution[k] = Math.floor((scale * sum) / 2 ** (31 - DM_LENGTH_SHIFT));
      sum += this.symbolCount[k] as number;
      if (table) {
        const w = (this.distribution[k] as number) >>> this.tableShift;
        while (s < w) table[++s] = k - 1;
      }
    }
    if (table) {
      table[0] = 0;
      const size = table.length - 2;
      while (s <= size) table[++s] = this.symbols - 1;
    }
    this.updateCycle = Math.min((5 * this.updateCycle) >>> 2, (this.symbols + 6) << 3);
    this.symbolsUntilUpdate = this.updateCycle;
  }
}

/** An adaptive binary model (LASzip's ArithmeticBitModel). */
export class BitModel {
  bit0Count = 1;
  private bitCount = 2;
  bit0Prob = 1 << (BM_LENGTH_SHIFT - 1);
  private updateCycle = 4;
  bitsUntilUpdate = 4;

  update(): void {
    this.bitCount += this.updateCycle;
    if (this.bitCount > BM_MAX_COUNT) {
      this.bitCount = (this.bitCount + 1) >>> 1;
      this.bit0Count = (this.bit0Count + 1) >>> 1;
      if (this.bit0Count === this.bitCount) this.bitCount++;
    }
    const scale = Math.floor(0x80000000 / this.bitCount);
    this.bit0Prob = Math.floor((this.bit0Count * scale) / 2 ** (31 - BM_LENGTH_SHIFT));
    this.updateCycle = Math.min((5 * this.updateCycle) >>> 2, 64);
    this.bitsUntilUpdate = this.updateCycle;
  }
}

/** LASzip's range decoder over bytes in memory. Past the end it reads zeros: the caller checks the decoded sizes against the file's layout instead. */
class RangeDecoder {
  private value: number;
  private length = AC_MAX_LENGTH;
  private at = 0;

  private readonly bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.value = ((this.byte() << 24) | (this.byte() << 16) | (this.byte() << 8) | this.byte()) >>> 0;
  }

  private byte(): number {
    return this.bytes[this.at++] ?? 0;
  }

  private renormalize(): void {
    do {
      this.value = ((this.value << 8) | this.byte()) >>> 0;
      this.length = (this.length << 8) >>> 0;
    } while (this.length < AC_MIN_LENGTH);
  }

  decodeBit(m: BitModel): number {
    const x = m.bit0Prob * (this.length >>> BM_LENGTH_SHIFT);
    const bit = this.value >= x ? 1 : 0;
    if (bit === 0) {
      this.length = x;
      m.bit0Count++;
    } else {
      this.value -= x;
      this.length -= x;
    }
    if (this.length < AC_MIN_LENGTH) this.renormalize();
    if (--m.bitsUntilUpdate === 0) m.update();
    return bit;
  }

  decodeSymbol(m: SymbolModel): number {
    let sym: number;
    let x: number;
    let y = this.length;
    if (m.decoderTable) {
      this.length >>>= DM_LENGTH_SHIFT;
      const dv = Math.floor(this.value / this.length);
      const t = dv >>> m.tableShift;
      sym = m.decoderTable[t] as number;
      let n = (m.decoderTable[t + 1] as number) + 1;
      while (n > sym + 1) {
        const k = (sym + n) >>> 1;
        if ((m.distribution[k] as number) > dv) n = k;
        else sym = k;
      }
      x = (m.distribution[sym] as number) * this.length;
      if (sym !== m.lastSymbol) y = (m.distribution[sym + 1] as number) * this.length;
    } else {
      x = 0;
      sym = 0;
      this.length >>>= DM_LENGTH_SHIFT;
      let n = m.symbols;
      let k = n >>> 1;
      do {
        const z = this.length * (m.distribution[k] as number);
        if (z > this.value) {
          n = k;
          y = z;
        } else {
          sym = k;
          x = z;
        }
        k = (sym + n) >>> 1;
      } while (k !== sym);
    }
    this.value -= x;
    this.length = y - x;
    if (this.length < AC_MIN_LENGTH) this.renormalize();
    m.symbolCount[sym] = (m.symbolCount[sym] as number) + 1;
    if (--m.symbolsUntilUpdate === 0) m.update();
    return sym;
  }

  readBits(bits: number): number {
    if (bits > 19) {
      const low = this.readBits(16);
      return ((this.readBits(bits - 16) << 16) | low) >>> 0;
    }
    this.length >>>= bits;
    const sym = Math.floor(this.value / this.length);
    this.value -= this.length * sym;
    if (this.length < AC_MIN_LENGTH) this.renormalize();
    return sym;
  }
}

/** LASzip's IntegerCompressor with 32 bits and bits_high 8, decompressing only. */
class IntegerDecompressor {
  private readonly bitsModels: SymbolModel[];
  private readonly corrector0 = new BitModel();
  private readonly correctors: SymbolModel[] = [];
  private static readonly BITS_HIGH = 8;

  private readonly decoder: RangeDecoder;
  constructor(decoder: RangeDecoder, contexts: number) {
    this.decoder = decoder;
    this.bitsModels = Array.from({ length: contexts }, () => new SymbolModel(33));
    for (let k = 1; k <= 32; k++) {
      this.correctors[k] = new SymbolModel(1 << Math.min(k, IntegerDecompressor.BITS_HIGH));
    }
  }

  /** The value predicted as `prediction`, wrapped to 32 bits as LASzip's I32 arithmetic does. */
  decompress(prediction: number, context: number): number {
    return (prediction + this.corrector(this.bitsModels[context] as SymbolModel)) | 0;
  }

  private corrector(bitsModel: SymbolModel): number {
    const k = this.decoder.decodeSymbol(bitsModel);
    if (k === 0) return this.decoder.decodeBit(this.corrector0);
    if (k >= 32) return -0x80000000;
    const high = IntegerDecompressor.BITS_HIGH;
    let c = this.decoder.decodeSymbol(this.correctors[k] as SymbolModel);
    if (k > high) c = c * 2 ** (k - high) + this.decoder.readBits(k - high);
    return c >= 2 ** (k - 1) ? c + 1 : c - (2 ** k - 1);
  }
}

export interface ChunkEntry {
  readonly points: number;
  readonly bytes: number;
}

/**
 * The entries of a chunk table's compressed part. `fixedPoints` is the LASzip VLR's chunk size,
 * or undefined when chunks vary in size (their counts are then in the table). The caller checks
 * the entries against the file (their bytes must fill the space before the table).
 */
export function decodeChunkEntries(
  data: Uint8Array,
  chunks: number,
  fixedPoints: number | undefined,
): ChunkEntry[] {
  const decoder = new RangeDecoder(data);
  const integers = new IntegerDecompressor(decoder, 2);
  const entries: ChunkEntry[] = [];
  let points = 0;
  let bytes = 0;
  for (let i = 0; i < chunks; i++) {
    if (fixedPoints === undefined) points = integers.decompress(points, 0);
    bytes = integers.decompress(bytes, 1);
    entries.push({ points: fixedPoints ?? points >>> 0, bytes: bytes >>> 0 });
  }
  return entries;
}
