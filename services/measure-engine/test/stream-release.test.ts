// Every stream a reader opens is let go, read out or not. Behind a ByteSource lies an object-store
// response holding one of the client's pooled sockets, or an open file: a header read that walked
// away from its stream leaked one per run, until a worker's reads waited forever for a socket.
import { describe, expect, it } from '@jest/globals';
import { bufferSource } from '../src/io/byte-source.ts';
import { openPointCloud } from '../src/readers/open-point-cloud.ts';
import type { ByteSource } from '../src/types.ts';
import { las, lasToLaz, plyAscii, plyBinary, scatter } from './point-clouds.ts';

const cloud = scatter((x, y) => 50 + 0.05 * x + 0.1 * y, {
  x0: 500_000,
  y0: 4_000_000,
  size: 20,
  density: 4,
  sigma: 0.01,
});

/** A source in small chunks that counts the streams opened and the ones that reached their end or were closed. */
function countedSource(bytes: Uint8Array, name: string) {
  const inner = bufferSource(bytes, name, 97);
  const counts = { opened: 0, released: 0 };
  const counted = (stream: AsyncIterable<Uint8Array>) =>
    (async function* () {
      counts.opened += 1;
      try {
        yield* stream;
      } finally {
        counts.released += 1;
      }
    })();
  const source: ByteSource = {
    name,
    size: bytes.byteLength,
    open: () => counted(inner.open()),
    openAt: (offset) => counted(inner.openAt!(offset)),
  };
  return { source, counts };
}

// A PLY whose vertices are followed by a face element: the point reader stops before the end.
const withFaces = (() => {
  const text = new TextDecoder().decode(plyAscii(cloud));
  const header = text
    .replace('end_header', 'element face 1\nproperty list uchar int vertex_indices\nend_header')
    .concat('3 0 1 2\n');
  return new TextEncoder().encode(header);
})();

const FILES: [string, Uint8Array][] = [
  ['LAS 1.2', las(cloud)],
  ['LAS 1.4 format 6', las(cloud, { minor: 4, format: 6 })],
  ['LAZ', lasToLaz(las(cloud), 100)],
  ['ascii PLY', plyAscii(cloud)],
  ['binary PLY', plyBinary(cloud)],
  ['PLY with faces after its vertices', withFaces],
];

describe.each(FILES)('%s', (name, bytes) => {
  it('lets every stream go once the header is read', async () => {
    const { source, counts } = countedSource(bytes, name);
    await openPointCloud(source);
    expect(counts.opened).toBeGreaterThan(0);
    expect(counts.released).toBe(counts.opened);
  });

  it('lets every stream go when the points are read to the end', async () => {
    const { source, counts } = countedSource(bytes, name);
    const reader = await openPointCloud(source);
    let points = 0;
    for await (const chunk of reader.points()) points += chunk.count;
    expect(points).toBe(cloud.x.length);
    expect(counts.released).toBe(counts.opened);
  });

  it('lets every stream go when its reader stops after the first block of points', async () => {
    const { source, counts } = countedSource(bytes, name);
    const reader = await openPointCloud(source);
    for await (const chunk of reader.points()) {
      expect(chunk.count).toBeGreaterThan(0);
      break;
    }
    expect(counts.released).toBe(counts.opened);
  });
});
